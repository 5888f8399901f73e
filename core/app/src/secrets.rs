//! The secrets a run redacts (spec: Compaction, cost, and secrets — the secret proxy; DESIGN §11):
//! the user's secret store (`secrets.kdl`, mode 0600, beside the auth file), every credential
//! of the auth file, and the values of the providers' key variables. Their plaintext stays in
//! those places under the user's file permissions; sessions record only each registration's
//! name, label and source.
//!
//! ```kdl
//! secret "DEPLOY_TOKEN" value="…" label="the staging deploy token"
//! ```
//!
//! Every change happens under an exclusive lock on `secrets.kdl.lock` and replaces the file whole
//! (0600 temporary file, synced, renamed). Secret values are never printed, and no error message
//! holds one.

use std::path::{Path, PathBuf};

use smith_secrets::{Redactor, SecretError};
use smith_store::SecretRegistration;

use crate::auth;

/// Largest secret store read.
const MAX_BYTES: usize = 1 << 20;

/// The secrets of a run: the redactor over their plaintext and their registration records.
#[derive(Clone, Debug, Default)]
pub struct Secrets {
    /// Replaces every registered secret (and its encodings) by its reference; shared, so a
    /// secret a plugin hands over is redacted everywhere from then on.
    pub redactor: smith_secrets::Shared,
    /// What sessions record of each: name, label, source.
    pub registrations: Vec<SecretRegistration>,
}

/// One secret of the user's store.
#[derive(Clone, PartialEq, Eq)]
pub struct StoredSecret {
    /// Its name (its reference is `⟦secret:NAME⟧`).
    pub name: String,
    /// Its plaintext. Never printed.
    pub value: String,
    /// What it is, in the user's words.
    pub label: Option<String>,
}

impl std::fmt::Debug for StoredSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoredSecret")
            .field("name", &self.name)
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

/// The secret store or a registration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SecretsError {
    /// The store cannot be read.
    #[error("the secret store `{}` cannot be read: {source}", path.display())]
    Unreadable {
        /// The store.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Others may read the store: its secrets are not used.
    #[error(
        "the secret store `{}` may be read by others (mode {mode:o}); its secrets are not used until it is private: chmod 600 {}",
        path.display(),
        path.display()
    )]
    OpenToOthers {
        /// The store.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The store is not what it should be.
    #[error("the secret store `{}` is malformed: {what}; fix or remove that entry", path.display())]
    Malformed {
        /// The store.
        path: PathBuf,
        /// What is wrong (never a value).
        what: String,
    },
    /// A secret is refused (its name, or its length).
    #[error(transparent)]
    Refused(#[from] SecretError),
    /// A value or label holds a control character (a line break, an escape), which would be
    /// stored or shown mangled.
    #[error(
        "the {what} of secret `{name}` holds a control character (a line break, a tab, an escape); a secret and its label are one line of printable text"
    )]
    Control {
        /// `value` or `label`.
        what: &'static str,
        /// The secret's name.
        name: String,
    },
    /// The store cannot be written.
    #[error("the secret store `{}` cannot be {action}: {source}", path.display())]
    Write {
        /// The store.
        path: PathBuf,
        /// What failed.
        action: &'static str,
        /// Why.
        source: std::io::Error,
    },
    /// The auth file cannot be read (its credentials are secrets to register).
    #[error(transparent)]
    Auth(#[from] auth::AuthError),
    /// The `secrets.env` setting names something that is not a variable name.
    #[error(
        "{source_text}: secrets.env: `{name}` is not an environment variable name (letters, digits and `_`, not starting with a digit); list names separated by commas, e.g. GITHUB_TOKEN,NPM_TOKEN"
    )]
    Setting {
        /// The setting's source.
        source_text: String,
        /// The offending name.
        name: String,
    },
}

/// The secrets of the user's store at `path`, in file order; empty when it does not exist.
///
/// # Errors
/// [`SecretsError`] when it cannot be read, others may read it, or an entry is malformed.
pub fn stored(path: &Path) -> Result<Vec<StoredSecret>, SecretsError> {
    let text = match auth::read_bounded(path, MAX_BYTES) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(SecretsError::Unreadable {
                path: path.to_owned(),
                source,
            });
        }
    };
    if let Some(mode) = auth::open_to_others(path) {
        return Err(SecretsError::OpenToOthers {
            path: path.to_owned(),
            mode,
        });
    }
    let bad = |what: String| SecretsError::Malformed {
        path: path.to_owned(),
        what,
    };
    let doc = kdl::KdlDocument::parse(&text).map_err(|_| bad("it is not valid KDL".into()))?;
    let mut out: Vec<StoredSecret> = Vec::new();
    for (n, node) in doc.nodes().iter().enumerate() {
        let string = |key: &str| node.get(key).and_then(|v| v.as_string()).map(str::to_owned);
        let name = node.entries().first().filter(|e| e.name().is_none());
        let (Some(name), Some(value), "secret") = (
            name.and_then(|e| e.value().as_string()),
            string("value"),
            node.name().value(),
        ) else {
            return Err(bad(format!(
                "node {} is not `secret \"NAME\" value=\"…\"`",
                n + 1
            )));
        };
        if out.iter().any(|s| s.name == name) {
            return Err(bad(format!("secret `{name}` is stored twice")));
        }
        out.push(StoredSecret {
            name: name.to_owned(),
            value,
            label: string("label"),
        });
    }
    Ok(out)
}

/// Add (or replace) secret `name` in the store at `path`; whether it replaced one.
///
/// # Errors
/// [`SecretsError::Refused`] for a name or length the proxy refuses and
/// [`SecretsError::Control`] for a control character (before anything is written); the
/// store's read and write errors.
pub fn add(
    path: &Path,
    name: &str,
    value: &str,
    label: Option<&str>,
) -> Result<bool, SecretsError> {
    Redactor::new([(name, value)])?;
    for (what, text) in [("value", Some(value)), ("label", label)] {
        if text.is_some_and(|t| t.chars().any(char::is_control)) {
            return Err(SecretsError::Control {
                what,
                name: name.to_owned(),
            });
        }
    }
    let mut replaced = false;
    update(path, |secrets| {
        let secret = StoredSecret {
            name: name.to_owned(),
            value: value.to_owned(),
            label: label.map(str::to_owned),
        };
        match secrets.iter_mut().find(|s| s.name == name) {
            Some(s) => {
                replaced = true;
                *s = secret;
            }
            None => secrets.push(secret),
        }
        true
    })?;
    Ok(replaced)
}

/// Remove secret `name` from the store at `path`; whether it was there. Sessions that recorded
/// it keep their records redacted: they hold its reference, never its plaintext.
///
/// # Errors
/// The store's read and write errors.
pub fn remove(path: &Path, name: &str) -> Result<bool, SecretsError> {
    update(path, |secrets| {
        let before = secrets.len();
        secrets.retain(|s| s.name != name);
        secrets.len() != before
    })
}

/// Change the store under its lock and replace it whole when `change` says it changed.
fn update(
    path: &Path,
    change: impl FnOnce(&mut Vec<StoredSecret>) -> bool,
) -> Result<bool, SecretsError> {
    let fail = |action: &'static str| {
        move |source| SecretsError::Write {
            path: path.to_owned(),
            action,
            source,
        }
    };
    let _lock = auth::lock_beside(path).map_err(fail("locked"))?;
    let mut secrets = stored(path)?;
    if !change(&mut secrets) {
        return Ok(false);
    }
    let q = |s: &str| kdl::KdlValue::String(s.to_owned()).to_string();
    let text: String = secrets
        .iter()
        .map(|s| {
            let label = s
                .label
                .as_ref()
                .map(|l| format!(" label={}", q(l)))
                .unwrap_or_default();
            format!("secret {} value={}{label}\n", q(&s.name), q(&s.value))
        })
        .collect();
    auth::replace_private(path, text.as_bytes()).map_err(fail("written"))?;
    Ok(true)
}

/// A name for a credential's registration: `PROVIDER.ACCOUNT`, other characters as `_`.
fn credential_name(provider: &str, account: &str) -> String {
    format!("{provider}.{account}")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') {
                c
            } else {
                '_'
            }
        })
        .take(smith_secrets::MAX_NAME_BYTES)
        .collect()
}

/// Every secret a run redacts: the user's store, each credential of the auth file of every
/// provider `providers` names, and the value of each variable `variables` names (`(label,
/// variable)`: the providers' key variables, those the `secrets.env` setting names) that is set
/// in `env`. Credentials shorter than the proxy's minimum
/// are left out (redacting them would redact ordinary text).
///
/// # Errors
/// [`SecretsError`] from the store or the auth file.
pub fn gather(
    store: Option<&Path>,
    auth_file: Option<&Path>,
    providers: &[String],
    variables: &[(String, String)],
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Secrets, SecretsError> {
    let mut plain: Vec<(String, String)> = Vec::new();
    let mut registrations = Vec::new();
    let mut register = |name: String, value: String, label: Option<String>, source: String| {
        if value.len() < smith_secrets::MIN_SECRET_BYTES
            || value.len() > smith_secrets::MAX_SECRET_BYTES
            || plain.iter().any(|(_, v)| *v == value)
        {
            return;
        }
        // Two sources may use one name (a stored secret and a variable): each keeps its value,
        // the later one under `NAME.2`, `NAME.3`, …
        let mut name = name;
        let base = name.clone();
        let mut n = 1;
        while plain.iter().any(|(taken, _)| *taken == name) {
            n += 1;
            name = format!("{base}.{n}");
        }
        plain.push((name.clone(), value));
        registrations.push(SecretRegistration {
            name,
            label,
            source,
        });
    };
    if let Some(store) = store {
        for s in stored(store)? {
            register(s.name, s.value, s.label, "user".to_owned());
        }
    }
    if let Some(auth_file) = auth_file {
        let ids: Vec<&str> = providers.iter().map(String::as_str).collect();
        for (id, accounts) in auth::accounts_to_redact_of(auth_file, &ids)? {
            for (account, secret) in accounts {
                let source = format!("auth:{id}/{account}");
                let name = credential_name(id, &account);
                match secret {
                    auth::Secret::Key(key) => register(name, key, None, source),
                    auth::Secret::Renewable(r) => {
                        register(format!("{name}.access"), r.access, None, source.clone());
                        register(format!("{name}.refresh"), r.refresh, None, source);
                    }
                }
            }
        }
    }
    for (label, variable) in variables {
        if let Some(value) = env(variable) {
            register(
                variable.clone(),
                value,
                Some(label.clone()),
                format!("env:{variable}"),
            );
        }
    }
    let redactor = Redactor::new(plain.iter().map(|(n, v)| (n.as_str(), v.as_str())))?;
    Ok(Secrets {
        redactor: smith_secrets::Shared::new(redactor),
        registrations,
    })
}

/// The secrets inspection redacts, from `paths` alone (no configuration or plugins are
/// loaded): the user's secret store and every credential of the auth file. Sessions written
/// after a secret was registered hold only its reference; this covers those written before.
///
/// # Errors
/// [`SecretsError`] from the store or the auth file.
pub fn for_inspection(paths: &crate::Paths) -> Result<Secrets, SecretsError> {
    let auth_file = paths.auth_file().ok();
    let providers = match &auth_file {
        Some(path) => auth::providers(path)?,
        None => Vec::new(),
    };
    gather(
        paths.secrets_file().as_deref(),
        auth_file.as_deref(),
        &providers,
        &[],
        &|_| None,
    )
}
