//! Project trust records.

use std::path::{Path, PathBuf};

use crate::ConfigError;

/// The trusted project directories, kept in a KDL file (`trust "/abs/path"` per project).
/// A project's configuration and local executable behaviour apply only when its directory is
/// trusted (spec: Security — project trust gates local executable behaviour).
#[derive(Debug)]
pub struct TrustStore {
    path: PathBuf,
    projects: Vec<PathBuf>,
}

fn io<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> ConfigError + 'a {
    move |e| ConfigError::Io {
        action,
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

impl TrustStore {
    /// Load the records at `path` (missing file: nothing trusted).
    ///
    /// # Errors
    /// An unreadable or malformed file, naming it.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let projects = match std::fs::read_to_string(path) {
            Ok(text) => {
                let label = path.display().to_string();
                crate::parse_file(&text, &label)?
                    .into_iter()
                    .filter(|e| e.key == "trust")
                    .map(|e| PathBuf::from(e.text()))
                    .collect()
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Err(e) => return Err(io("reading trust records", path)(e)),
        };
        Ok(Self {
            path: path.to_owned(),
            projects,
        })
    }

    /// Whether `project` (an absolute, canonical directory) is trusted.
    pub fn is_trusted(&self, project: &Path) -> bool {
        self.projects.iter().any(|p| p == project)
    }

    /// The trusted directories.
    pub fn projects(&self) -> &[PathBuf] {
        &self.projects
    }

    /// Trust `project` and save atomically. Returns `false` if it was already trusted.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn trust(&mut self, project: &Path) -> Result<bool, ConfigError> {
        if project.to_str().is_none() {
            return Err(ConfigError::Invalid {
                source_text: "smith trust".into(),
                key: "trust".into(),
                value: project.display().to_string(),
                reason: "the path is not valid UTF-8, so it cannot be recorded exactly".into(),
                example: "rename the directory to a UTF-8 name".into(),
            });
        }
        if self.is_trusted(project) {
            return Ok(false);
        }
        self.projects.push(project.to_owned());
        self.save()?;
        Ok(true)
    }

    /// Stop trusting `project` and save atomically. Returns `false` if it was not trusted.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn revoke(&mut self, project: &Path) -> Result<bool, ConfigError> {
        let before = self.projects.len();
        self.projects.retain(|p| p != project);
        if self.projects.len() == before {
            return Ok(false);
        }
        self.save()?;
        Ok(true)
    }

    fn save(&self) -> Result<(), ConfigError> {
        let mut text = String::from(
            "// Projects trusted by `smith trust`; remove with `smith trust --revoke`.\n",
        );
        for p in &self.projects {
            let Some(p) = p.to_str() else { continue };
            text.push_str(&format!("trust {}\n", crate::edit::quote(p)));
        }
        crate::edit::write_atomic(&self.path, &text)
    }
}
