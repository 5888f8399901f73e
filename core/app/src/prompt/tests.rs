//! Prompt input: mentions, attachments, images and piped blocks.

use super::*;

#[test]
fn an_unreadable_mention_says_what_to_do_by_why() {
    let denied = PromptError::Unreadable {
        mention: "secret.txt".to_owned(),
        source: std::io::ErrorKind::PermissionDenied.into(),
    }
    .to_string();
    assert!(
        denied.starts_with("cannot read `@secret.txt`: permission denied;"),
        "{denied}"
    );
    assert!(
        denied.contains("make it readable by the user running smith"),
        "{denied}"
    );
    assert!(denied.contains("`@@`"), "{denied}");
    let missing = PromptError::Unreadable {
        mention: "nope.txt".to_owned(),
        source: std::io::ErrorKind::NotFound.into(),
    }
    .to_string();
    assert!(
        missing.contains("check the path, which is relative to the working directory"),
        "{missing}"
    );
    let image = PromptError::ImageUnreadable {
        path: "shot.png".to_owned(),
        source: std::io::ErrorKind::PermissionDenied.into(),
    }
    .to_string();
    assert!(image.contains("make it readable"), "{image}");
}

fn work() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/b.rs"), "fn b() {}\n// ``` inside\n").unwrap();
    dir
}

#[test]
fn mentions_attach_files_with_their_hashes_and_escapes_stay_text() {
    let dir = work();
    let p = expand(
        "read @a.txt and @src/b.rs, mail me@example.com, say @@home",
        dir.path(),
        None,
        Bounds::default(),
    )
    .unwrap();
    assert!(
        p.text
            .starts_with("read @a.txt and @src/b.rs, mail me@example.com, say @home"),
        "{}",
        p.text
    );
    assert_eq!(p.attachments.len(), 2);
    assert_eq!(p.attachments[0].path, "a.txt");
    assert_eq!(p.attachments[0].bytes, 6);
    assert_eq!(
        p.attachments[0].sha256,
        "b6a98d9ce9a2d9149288fa3df42d377c3e42737afdcdaf714e33c0a100b51060"
    );
    assert!(p.text.contains("`a.txt` (6 bytes, sha256 "), "{}", p.text);
    // The fence outgrows the backticks inside the content.
    assert!(p.text.contains("\n````\nfn b() {}"), "{}", p.text);
}

#[test]
fn mentions_that_name_nothing_or_escape_the_directory_are_refused() {
    let dir = work();
    let refuse = |text: &str| expand(text, dir.path(), None, Bounds::default()).unwrap_err();
    assert!(matches!(refuse("@nope.txt"), PromptError::Missing { .. }));
    assert!(matches!(refuse("@../x"), PromptError::Outside { .. }));
    assert!(matches!(
        refuse("@/etc/hostname"),
        PromptError::Outside { .. }
    ));
    assert!(matches!(refuse("@src"), PromptError::NotAFile { .. }));
    std::fs::write(dir.path().join("bin"), [0xff, 0xfe]).unwrap();
    assert!(matches!(
        refuse("@bin"),
        PromptError::NotText { offset: 0, .. }
    ));
    let small = Bounds {
        file_bytes: 3,
        ..Bounds::default()
    };
    assert!(matches!(
        expand("@a.txt", dir.path(), None, small),
        Err(PromptError::TooLarge {
            bytes: 6,
            max: 3,
            ..
        })
    ));
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("/etc/hostname", dir.path().join("link")).unwrap();
        assert!(matches!(refuse("@link"), PromptError::Outside { .. }));
    }
    let e = refuse("@nope.txt").to_string();
    assert!(e.contains("@@nope.txt"), "{e}");
}

#[test]
fn piped_input_is_appended_as_a_bounded_fenced_block() {
    let dir = work();
    let p = expand(
        "summarise",
        dir.path(),
        Some("line one\nline two"),
        Bounds::default(),
    )
    .unwrap();
    assert_eq!(p.text, "summarise\n\n```\nline one\nline two\n```");
    let tiny = Bounds {
        piped_bytes: 4,
        ..Bounds::default()
    };
    assert!(matches!(
        expand("x", dir.path(), Some("12345"), tiny),
        Err(PromptError::PipedTooLarge { bytes: 5, max: 4 })
    ));
}

fn outside_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn image_mentions_and_given_images_become_image_blocks_within_bounds() {
    let dir = work();
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR-not-checked-further";
    std::fs::write(dir.path().join("shot.png"), png).unwrap();
    std::fs::write(dir.path().join("fake.png"), "not an image").unwrap();
    let mut p = expand(
        "see @shot.png and @a.txt",
        dir.path(),
        None,
        Bounds::default(),
    )
    .unwrap();
    assert_eq!(p.images.len(), 1);
    assert_eq!(p.images[0].media_type, "image/png");
    use base64::Engine as _;
    assert_eq!(
        base64::engine::general_purpose::STANDARD
            .decode(&p.images[0].data)
            .unwrap(),
        png
    );
    // Text files are still text; the image is named in the text, after them.
    assert!(p.text.contains("`a.txt` (6 bytes"), "{}", p.text);
    assert!(
        p.text.ends_with(&format!(
            "`shot.png` (image/png, {} bytes, sha256 {}): attached as image 1",
            png.len(),
            sha256_hex(png)
        )),
        "{}",
        p.text
    );
    assert_eq!(p.attachments.len(), 2);

    // A file with an image's name but not its bytes is text.
    let q = expand("@fake.png", dir.path(), None, Bounds::default()).unwrap();
    assert!(q.images.is_empty() && q.text.contains("not an image"));

    // A bare signature is not an image.
    let bare = outside_dir();
    std::fs::write(bare.path().join("hdr.gif"), b"GIF89a").unwrap();
    assert!(matches!(
        attach_image(
            &mut p.clone(),
            &bare.path().join("hdr.gif"),
            "hdr.gif",
            Bounds::default()
        ),
        Err(PromptError::NotAnImage { .. })
    ));

    // Given by path: anywhere, but an image, and bounded.
    let outside = tempfile::tempdir().unwrap();
    let gif = outside.path().join("d.gif");
    std::fs::write(&gif, b"GIF89a\x01\x00\x01\x00\x00\x00\x00\x3b").unwrap();
    attach_image(&mut p, &gif, "d.gif", Bounds::default()).unwrap();
    assert_eq!(p.images[1].media_type, "image/gif");
    assert!(p.text.ends_with("attached as image 2"), "{}", p.text);
    let text = outside.path().join("t.txt");
    std::fs::write(&text, "hello").unwrap();
    assert!(matches!(
        attach_image(&mut p, &text, "t.txt", Bounds::default()),
        Err(PromptError::NotAnImage { .. })
    ));
    let small = Bounds {
        image_bytes: 4,
        ..Bounds::default()
    };
    assert!(matches!(
        attach_image(&mut p, &gif, "d.gif", small),
        Err(PromptError::ImageTooLarge {
            bytes: 14,
            max: 4,
            ..
        })
    ));
    let err = expand("@shot.png", dir.path(), None, small).unwrap_err();
    assert!(
        err.to_string()
            .contains("is an image of 36 bytes, more than the 4 bytes an attached image may be"),
        "{err}"
    );
    assert_eq!(p.images.len(), 2, "a refused image adds nothing");
    // The images of one prompt are bounded together too.
    let together = Bounds {
        images_bytes: 12,
        ..Bounds::default()
    };
    assert!(matches!(
        attach_image(&mut p, &gif, "d.gif", together),
        Err(PromptError::ImagesTooLarge { max: 12, .. })
    ));
    let err = attach_image(&mut p, &text, "t.txt", Bounds::default()).unwrap_err();
    assert!(err.to_string().starts_with("`t.txt` is not a PNG"), "{err}");
    let err = attach_image(&mut p, outside.path(), "dir", Bounds::default()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("the image `dir` is not a regular file"),
        "{err}"
    );
    assert_eq!(mib(3 * 1024 * 1024 + 768 * 1024), "3.75 MiB");
    assert_eq!(mib(8 << 20), "8 MiB");
    assert_eq!(mib(1 << 19), "524288 bytes");
    assert_eq!(mib(10 << 20), "10 MiB");
}
