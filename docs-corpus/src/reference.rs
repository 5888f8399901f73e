//! Generated reference: documents derived from authoritative declarations, and the drift
//! check that keeps the checked-in copies equal to them.
//!
//! A declaration source (the clap command tree today; configuration schemas, the WIT package
//! and the RPC/event schemas as they land) turns itself into [`ReferenceDoc`]s. The checked-in
//! copies live in `docs-corpus/docs/reference/` so the corpus (and the binary, which embeds the
//! corpus) carries them; [`check_drift`] compares them with a fresh generation and [`bless`]
//! rewrites them. Nobody edits these files by hand.

use std::path::{Path, PathBuf};

/// One generated reference document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReferenceDoc {
    /// File name under `docs/reference/`, e.g. `cli.md`.
    pub file: String,
    /// Document id, e.g. `reference/cli`.
    pub id: String,
    /// Title.
    pub title: String,
    /// Search tags.
    pub tags: Vec<String>,
    /// The markdown body.
    pub body: String,
}

impl ReferenceDoc {
    /// The complete file text: front matter, a do-not-edit notice, the body.
    pub fn to_file(&self) -> String {
        format!(
            "---\nid: {}\ntitle: {}\nkind: reference\ntags: [{}]\n---\n\n<!-- Generated from the declarations by `cargo xtask docs`; do not edit. -->\n\n{}",
            self.id,
            self.title,
            self.tags.join(", "),
            self.body.trim_end().to_owned() + "\n"
        )
    }
}

/// A checked-in reference file that differs from its declarations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drift {
    /// The file.
    pub path: PathBuf,
    /// `missing` or the 1-based first differing line.
    pub what: String,
}

impl std::fmt::Display for Drift {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.what)
    }
}

/// Compare every generated document with its checked-in copy in `reference_dir`.
///
/// # Errors
/// Every [`Drift`] found; regenerate with `cargo xtask docs`.
pub fn check_drift(reference_dir: &Path, docs: &[ReferenceDoc]) -> Result<(), Vec<Drift>> {
    let mut drifts = Vec::new();
    for doc in docs {
        let path = reference_dir.join(&doc.file);
        let expected = doc.to_file();
        match std::fs::read_to_string(&path) {
            Err(_) => drifts.push(Drift {
                path,
                what: "missing".into(),
            }),
            Ok(found) if found != expected => {
                let line = found
                    .lines()
                    .zip(expected.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or_else(|| found.lines().count().min(expected.lines().count()))
                    + 1;
                drifts.push(Drift {
                    path,
                    what: format!("differs from the declarations from line {line}"),
                });
            }
            Ok(_) => {}
        }
    }
    if drifts.is_empty() {
        Ok(())
    } else {
        Err(drifts)
    }
}

/// Write every generated document into `reference_dir`.
///
/// # Errors
/// The I/O error of the first file that could not be written.
pub fn bless(reference_dir: &Path, docs: &[ReferenceDoc]) -> std::io::Result<()> {
    std::fs::create_dir_all(reference_dir)?;
    for doc in docs {
        std::fs::write(reference_dir.join(&doc.file), doc.to_file())?;
    }
    Ok(())
}

/// A generated region inside a hand-written document: the text between
/// `<!-- generated: NAME (cargo xtask docs) -->` and `<!-- end generated: NAME -->`, kept
/// equal to its declarations like a whole reference document (e.g. the configuration guide's
/// list of environment variables).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    /// The document's path under `docs/`, e.g. `configuration.md`.
    pub file: String,
    /// The region's name in its markers.
    pub name: String,
    /// The markdown between the markers.
    pub body: String,
}

impl Region {
    fn markers(&self) -> (String, String) {
        (
            format!("<!-- generated: {} (cargo xtask docs) -->\n", self.name),
            format!("<!-- end generated: {} -->", self.name),
        )
    }

    /// `text` with this region's content replaced by its body; `None` when `text` lacks the
    /// markers.
    pub fn apply(&self, text: &str) -> Option<String> {
        let (start, end) = self.markers();
        let from = text.find(&start)? + start.len();
        let to = from + text[from..].find(&end)?;
        Some(format!(
            "{}{}\n{}",
            &text[..from],
            self.body.trim_end(),
            &text[to..]
        ))
    }
}

/// Compare every region with its document in `docs_dir`.
///
/// # Errors
/// Every [`Drift`]: a document that is missing, lacks the markers, or differs.
pub fn check_regions(docs_dir: &Path, regions: &[Region]) -> Result<(), Vec<Drift>> {
    let mut drifts = Vec::new();
    for region in regions {
        let path = docs_dir.join(&region.file);
        let what = match std::fs::read_to_string(&path) {
            Err(_) => Some("missing".to_owned()),
            Ok(text) => match region.apply(&text) {
                None => Some(format!(
                    "lacks the markers of the generated region `{}`",
                    region.name
                )),
                Some(fresh) if fresh != text => Some(format!(
                    "its generated region `{}` differs from the declarations",
                    region.name
                )),
                Some(_) => None,
            },
        };
        if let Some(what) = what {
            drifts.push(Drift { path, what });
        }
    }
    if drifts.is_empty() {
        Ok(())
    } else {
        Err(drifts)
    }
}

/// Rewrite every region in its document in `docs_dir`.
///
/// # Errors
/// An I/O error, or `InvalidData` for a document lacking a region's markers.
pub fn bless_regions(docs_dir: &Path, regions: &[Region]) -> std::io::Result<()> {
    for region in regions {
        let path = docs_dir.join(&region.file);
        let text = std::fs::read_to_string(&path)?;
        let fresh = region.apply(&text).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{} lacks the markers of region `{}`",
                    path.display(),
                    region.name
                ),
            )
        })?;
        std::fs::write(&path, fresh)?;
    }
    Ok(())
}

/// Escape text for a markdown table cell: pipes and line breaks.
pub fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', "<br>")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> ReferenceDoc {
        ReferenceDoc {
            file: "x.md".into(),
            id: "reference/x".into(),
            title: "X".into(),
            tags: vec!["a".into()],
            body: "# X\n\nbody\n".into(),
        }
    }

    #[test]
    fn a_stale_or_missing_copy_is_drift_and_bless_fixes_it() {
        let dir = tempfile::tempdir().unwrap();
        let docs = [doc()];
        let drift = check_drift(dir.path(), &docs).unwrap_err();
        assert_eq!(drift[0].what, "missing");
        bless(dir.path(), &docs).unwrap();
        assert_eq!(check_drift(dir.path(), &docs), Ok(()));
        let stale = doc().to_file().replace("body", "old body");
        std::fs::write(dir.path().join("x.md"), stale).unwrap();
        let stale_line = doc().to_file().lines().position(|l| l == "body").unwrap() + 1;
        let drift = check_drift(dir.path(), &docs).unwrap_err();
        assert_eq!(
            drift[0].what,
            format!("differs from the declarations from line {stale_line}")
        );
    }

    #[test]
    fn a_region_is_replaced_between_its_markers_and_stale_ones_are_drift() {
        let dir = tempfile::tempdir().unwrap();
        let region = Region {
            file: "g.md".into(),
            name: "vars".into(),
            body: "| a |\n".into(),
        };
        let text = "intro\n<!-- generated: vars (cargo xtask docs) -->\nold\n<!-- end generated: vars -->\nafter\n";
        std::fs::write(dir.path().join("g.md"), text).unwrap();
        let drift = check_regions(dir.path(), std::slice::from_ref(&region)).unwrap_err();
        assert!(drift[0].what.contains("differs"), "{drift:?}");
        bless_regions(dir.path(), std::slice::from_ref(&region)).unwrap();
        let fresh = std::fs::read_to_string(dir.path().join("g.md")).unwrap();
        assert_eq!(
            fresh,
            "intro\n<!-- generated: vars (cargo xtask docs) -->\n| a |\n<!-- end generated: vars -->\nafter\n"
        );
        assert_eq!(
            check_regions(dir.path(), std::slice::from_ref(&region)),
            Ok(())
        );
        std::fs::write(dir.path().join("g.md"), "no markers\n").unwrap();
        assert!(
            check_regions(dir.path(), &[region]).unwrap_err()[0]
                .what
                .contains("lacks")
        );
    }

    #[test]
    fn generated_files_parse_as_corpus_documents() {
        let c =
            crate::Corpus::from_files([("reference/x.md".to_owned(), doc().to_file())]).unwrap();
        assert_eq!(c.get("reference/x").unwrap().front.kind, "reference");
    }
}
