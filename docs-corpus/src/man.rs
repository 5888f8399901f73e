//! The manual pages: roff files generated from the command declarations (`cargo xtask man`,
//! checked in under `docs-corpus/man/`, kept equal to the declarations by the drift gate) and
//! embedded here, so `smith docs man` prints them with no installation.

use crate::DocsError;

const EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/man.zst"));
const EMBEDDED_LEN: &str = include_str!(concat!(env!("OUT_DIR"), "/man.len"));

/// Every embedded manual page as `(file name, roff text)`, ordered by name (`smith.1`,
/// `smith-docs.1`, …).
///
/// # Errors
/// [`DocsError::Damaged`] if the embedded bundle cannot be decoded (a build defect).
pub fn man_pages() -> Result<Vec<(String, String)>, DocsError> {
    crate::corpus::decode_bundle(EMBEDDED, EMBEDDED_LEN)?
        .into_iter()
        .map(|(name, data)| {
            String::from_utf8(data)
                .map(|text| (name, text))
                .map_err(|e| DocsError::Damaged(e.to_string()))
        })
        .collect()
}
