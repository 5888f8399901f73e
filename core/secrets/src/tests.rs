//! The redactor's, the shared registry's and the stream redactor's unit tests.

use super::*;

const KEY: &str = "sk-test-0123456789abcdef";

fn redactor() -> Redactor {
    Redactor::new([("OPENAI", KEY), ("SHORTER", "sk-test-0123")]).unwrap()
}

#[test]
fn every_form_is_replaced_by_the_reference_and_the_longest_wins() {
    let r = redactor();
    let b64 = base64::engine::general_purpose::STANDARD.encode(format!("key={KEY}\n"));
    for text in [
        format!("token {KEY} end"),
        format!("{{\"k\":\"{}\"}}", serde_json::to_string(KEY).unwrap()),
        percent_encoding::utf8_percent_encode(&format!("a={KEY}"), URL_COMPONENT).to_string(),
        b64,
    ] {
        let out = r.redact(&text);
        assert!(!out.contains(KEY) && !out.contains("sk-test-0123"), "{out}");
        assert!(out.contains("⟦secret:OPENAI⟧"), "{text} → {out}");
    }
    assert_eq!(r.redact("sk-test-0123 alone"), "⟦secret:SHORTER⟧ alone");
    assert!(matches!(r.redact("nothing here"), Cow::Borrowed(_)));
}

#[test]
fn a_secret_cut_at_a_bound_leaves_no_part_behind() {
    let r = Redactor::new([("TOKEN", "abcab-secret-abcab")]).unwrap();
    let whole = b"text abcab-secret-abcab";
    assert_eq!(
        r.redact_cut_bytes(whole),
        b"text \xe2\x9f\xa6secret:TOKEN\xe2\x9f\xa7"
    );
    for cut in 1..18 {
        let text = [b"text ".as_slice(), &b"abcab-secret-abcab"[..cut]].concat();
        let out = r.redact_cut_bytes(&text);
        assert_eq!(out, b"text ", "cut after {cut} bytes");
    }
    // Text that only looks like the start of nothing stays.
    assert_eq!(r.redact_cut_bytes(b"plain text"), b"plain text");
}

#[test]
fn the_common_url_and_json_encodings_are_found_and_references_stay_whole() {
    let r = Redactor::new([("P", "my pass/wörd+x'$")]).unwrap();
    for text in [
        "my%20pass/w%C3%B6rd%2Bx'%24",
        "my%20pass%2fw%c3%b6rd%2bx'%24",
        "my+pass%2Fw%C3%B6rd%2Bx'%24",
        "my%20pass%2Fw%C3%B6rd%2Bx%27%24",
        "my pass/w\\u00f6rd+x'$",
    ] {
        assert_eq!(r.redact(text), "⟦secret:P⟧", "{text}");
    }
    // A value that occurs inside reference text leaves references whole.
    let r = Redactor::new([("TOKEN", "sk-live-0123456789"), ("META", "ecret:TOKEN")]).unwrap();
    assert_eq!(r.redact("a sk-live-0123456789 b"), "a ⟦secret:TOKEN⟧ b");
    assert_eq!(
        r.redact("⟦secret:TOKEN⟧ and ecret:TOKEN"),
        "⟦secret:TOKEN⟧ and ⟦secret:META⟧"
    );
}

#[test]
fn a_long_repetitive_secret_builds_and_redacts() {
    let value = "q".repeat(MAX_SECRET_BYTES);
    let r = Redactor::new([("BIG", value.as_str())]).unwrap();
    assert_eq!(r.redact(&format!("a{value}b")), "a⟦secret:BIG⟧b");
}

#[test]
fn base64_at_every_alignment_is_found() {
    let r = redactor();
    for prefix in ["", "a", "ab", "abc"] {
        let encoded = base64::engine::general_purpose::STANDARD.encode(format!("{prefix}{KEY}!!"));
        assert!(r.finds(encoded.as_bytes()), "prefix {prefix:?}: {encoded}");
    }
}

#[test]
fn structured_values_are_redacted_in_keys_and_at_depth_and_restored_by_policy() {
    let r = redactor();
    let mut v = serde_json::json!({ KEY: [1, {"deep": format!("x{KEY}y")}] });
    assert!(r.redact_json(&mut v));
    let text = v.to_string();
    assert!(!text.contains(KEY), "{text}");
    assert_eq!(
        r.restore_json(&mut v, &|name| name == "OPENAI"),
        2,
        "key and value"
    );
    assert_eq!(v[KEY][1]["deep"], format!("x{KEY}y"));
    let (text, n) = r.restore("echo ⟦secret:OPENAI⟧ ⟦secret:NONE⟧", &|_| false);
    assert_eq!(
        (text.as_str(), n),
        ("echo ⟦secret:OPENAI⟧ ⟦secret:NONE⟧", 0)
    );
}

#[test]
fn streamed_pieces_redact_as_the_whole_does() {
    let r = redactor();
    let text = format!("start {KEY} middle sk-test-0123 ünïcode {KEY}");
    for size in 1..=text.len() {
        let mut s = r.stream();
        let mut out = String::new();
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let mut n = size.min(rest.len());
            while !rest.is_char_boundary(n) {
                n += 1;
            }
            out.push_str(&s.push(&rest[..n]));
            rest = &rest[n..];
        }
        out.push_str(&s.finish());
        assert_eq!(out, r.redact(&text), "pieces of {size}");
    }
}

#[test]
fn body_chunks_redact_as_the_whole_does_at_every_split() {
    let r = redactor();
    let mut body = format!("<p>{KEY}</p>").into_bytes();
    // Not UTF-8: a body is bytes.
    body.push(0xff);
    body.extend_from_slice(format!(" sk-test-0123 {KEY}").as_bytes());
    for size in 1..=body.len() {
        let mut held = Vec::new();
        let mut out = Vec::new();
        for piece in body.chunks(size) {
            out.extend(r.push_piece_bytes(&mut held, piece));
        }
        out.extend_from_slice(&r.redact_bytes(&held));
        assert_eq!(out, r.redact_bytes(&body).as_ref(), "chunks of {size}");
    }
}

#[test]
fn a_large_input_searched_in_chunks_gives_what_one_search_gives() {
    let r = redactor();
    let automaton = r.automaton.as_ref().unwrap();
    let len = 2 * PARALLEL_BYTES + 123;
    let mut text = "x".repeat(len);
    // Secrets straddling and touching every boundary two to eight threads would cut at.
    for threads in 2..=8usize {
        let step = len.div_ceil(threads);
        for i in 1..threads {
            for offset in [KEY.len() / 2, 0, KEY.len(), 3] {
                let at = (i * step).saturating_sub(offset);
                if at + KEY.len() <= len {
                    text.replace_range(at..at + KEY.len(), KEY);
                }
            }
        }
    }
    let sequential: Vec<(usize, usize, usize)> = automaton
        .find_iter(&text)
        .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
        .collect();
    assert!(!sequential.is_empty());
    assert_eq!(r.matches(text.as_bytes()), sequential);
}

#[test]
fn short_values_and_bad_names_are_refused() {
    assert!(matches!(
        Redactor::new([("A", "1234567")]),
        Err(SecretError::Length { len: 7, .. })
    ));
    assert!(matches!(
        Redactor::new([("a b", "12345678")]),
        Err(SecretError::Name { .. })
    ));
    assert!(Redactor::new(std::iter::empty()).unwrap().is_empty());
}
