//! Pasting an image from the system clipboard (Ctrl+V, the frontend's own key): a terminal
//! passes only text through its paste, so the image is read from the clipboard itself —
//! X11 or Wayland (through arboard), macOS, Windows — on a thread of its own, encoded as PNG,
//! and put in the draft as a chip. It is sent with the draft as an image block of the user
//! message, `[image K]` in the text where the chip stood (recorded as `clipboard image (W×H
//! PNG, SIZE)` with its size and SHA-256), and a model that does not take images refuses the
//! input before anything is written.

use std::sync::Arc;

use smith_render_terminal::input::size;

use crate::event::{Event, Events};

/// The longest side of an image pasted, in pixels (Anthropic's limit, the lowest of the
/// vendors'; over it a request is refused).
const MAX_SIDE: usize = 8000;

/// An image read from the clipboard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pasted {
    /// What it is (`640×480 PNG, 12.5 KiB`): the chip shows it (`[image · …]`), and the
    /// prompt records it.
    pub(crate) label: String,
    /// The image, PNG-encoded.
    pub(crate) png: Arc<Vec<u8>>,
}

/// Read the clipboard's image on a thread of its own; [`Event::Pasted`] brings it, or why
/// there is none, back to the loop.
pub(crate) fn start(events: &Events) {
    let sender = events.clone();
    let spawned = std::thread::Builder::new()
        .name("smith-paste-image".into())
        .spawn(move || sender.send(Event::Pasted(read())));
    if let Err(e) = spawned {
        events.send(Event::Pasted(Err(format!(
            "no image pasted: a thread to read the clipboard cannot be started ({e}); try again"
        ))));
    }
}

/// The clipboard's image as PNG, within the bound of one image; else why not, for the hint
/// line (what happened and what to do).
fn read() -> Result<Pasted, String> {
    if cfg!(all(unix, not(target_os = "macos")))
        && std::env::var_os("DISPLAY").is_none_or(|d| d.is_empty())
        && std::env::var_os("WAYLAND_DISPLAY").is_none_or(|d| d.is_empty())
    {
        return Err("no image pasted: DISPLAY and WAYLAND_DISPLAY are unset, so there is no system clipboard to read here (over SSH it is on the other machine); save the image into the working directory and attach it with @path".into());
    }
    let mut clipboard = arboard::Clipboard::new()
        .map_err(|e| format!("no image pasted: the system clipboard cannot be opened ({e})"))?;
    let image = match clipboard.get_image() {
        Ok(image) => image,
        // X11 answers a clipboard of text with a type error, not with "no content".
        Err(arboard::Error::ContentNotAvailable) | Err(_) if clipboard.get_text().is_ok() => {
            return Err("no image pasted: the clipboard holds text, no image (copy an image first; to paste text, use your terminal's paste, e.g. Ctrl+Shift+V)".into());
        }
        Err(arboard::Error::ContentNotAvailable) => {
            return Err("no image pasted: the clipboard holds no image (copy one first; to paste text, use your terminal's paste, e.g. Ctrl+Shift+V)".into());
        }
        Err(e) => {
            return Err(format!(
                "no image pasted: the clipboard holds no PNG image smith can read (on X11 and Wayland smith takes images as PNG; copy the image from a program that offers PNG, or save it and attach it with @path) ({e})"
            ));
        }
    };
    let (width, height) = (image.width, image.height);
    if width.max(height) > MAX_SIDE {
        return Err(format!(
            "no image pasted: the clipboard's image is {width}×{height} pixels, over the {MAX_SIDE} a side providers take; copy a smaller part of it"
        ));
    }
    let png = encode(&image).map_err(|e| {
        format!("no image pasted: the clipboard's {width}×{height} image could not be encoded as PNG ({e})")
    })?;
    let most = smith_app::prompt::Bounds::default().image_bytes;
    if png.len() as u64 > most {
        return Err(format!(
            "no image pasted: the clipboard's {width}×{height} image is {} bytes once smith encodes it as PNG, over the {most} bytes (3.75 MiB) one image may be; copy a smaller part of it",
            png.len()
        ));
    }
    Ok(Pasted {
        label: format!("{width}×{height} PNG, {}", size(png.len())),
        png: Arc::new(png),
    })
}

/// `image` (RGBA, 8 bits a channel) as PNG.
fn encode(image: &arboard::ImageData<'_>) -> Result<Vec<u8>, image::ImageError> {
    use image::ImageEncoder as _;
    let too_large = |_| {
        image::ImageError::Limits(image::error::LimitError::from_kind(
            image::error::LimitErrorKind::DimensionError,
        ))
    };
    let width = u32::try_from(image.width).map_err(too_large)?;
    let height = u32::try_from(image.height).map_err(too_large)?;
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png).write_image(
        &image.bytes,
        width,
        height,
        image::ExtendedColorType::Rgba8,
    )?;
    Ok(png)
}
