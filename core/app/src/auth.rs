//! The auth file (`auth.kdl`, mode 0600, beside the trust records): each provider's account bucket.
//!
//! ```kdl
//! provider "anthropic" {
//!     api-key "sk-ant-…"                 // account `auth-file`
//!     account "work" { api-key "…" }     // a named account
//!     account "sso" {                    // a renewable credential
//!         access-token "…"
//!         expires-at 1796054400          // Unix seconds
//!         refresh-token "…"
//!     }
//! }
//! ```
//!
//! Accounts are used in this order: the environment variable the provider's plugin declares,
//! then `api-key`, then the named accounts in file order. A file that others may read is
//! refused (its secrets are not used) with the fix named. Every change happens under an
//! exclusive lock on `auth.kdl.lock` and replaces the file whole (0600 temporary file, synced,
//! renamed), so concurrent changes never lose another provider's or account's entry. Secret
//! values are never printed, and no error message holds one.

use std::path::Path;

use std::path::PathBuf;

use smith_ai::credentials::{RenewError, Renewable, TokenEndpoint};

/// The label of the auth file's unnamed key of a provider (`smith auth set ID` without an
/// account name): the first account of the provider's bucket after its environment variable.
pub const DEFAULT_ACCOUNT: &str = "auth-file";

/// A stored secret.
#[derive(Clone, PartialEq, Eq)]
pub enum Secret {
    /// A static API key.
    Key(String),
    /// An access token renewed through its refresh token.
    Renewable(Renewable),
}

impl std::fmt::Debug for Secret {
    /// Never the value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Secret::Key(_) => f.write_str("Key(<redacted>)"),
            Secret::Renewable(r) => write!(f, "Renewable({r:?})"),
        }
    }
}

impl Secret {
    /// The value sent with requests (the key, or the current access token).
    pub fn value(&self) -> &str {
        match self {
            Secret::Key(k) => k,
            Secret::Renewable(r) => &r.access,
        }
    }
}

/// One account of a provider's bucket: its label and secret.
pub type Account = (String, Secret);

/// Why the auth file could not be used or changed. No message holds a secret.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// The file exists but cannot be read (or is too long, or not UTF-8).
    #[error("cannot read the auth file {}: {source}; fix or remove it, then store the keys again", path.display())]
    Unreadable {
        /// The auth file.
        path: PathBuf,
        /// What reading it gave.
        source: std::io::Error,
    },
    /// The file nests blocks deeper than any valid auth file does.
    #[error("the auth file {} nests blocks deeper than {max} levels; it needs three (provider {{ account {{ … }} }}) — fix or remove it", path.display())]
    TooDeep {
        /// The auth file.
        path: PathBuf,
        /// The deepest nesting read.
        max: usize,
    },
    /// Others may read the file, so its secrets are not used.
    #[error("the auth file {} may be read by others (mode {mode:o}), so its keys are not used; run `chmod 600 {}`", path.display(), path.display())]
    OpenToOthers {
        /// The auth file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The file is not KDL.
    #[error("the auth file {} is not valid KDL; expected `provider \"ID\" {{ api-key \"…\" }}` nodes — fix or remove it", path.display())]
    NotKdl {
        /// The auth file.
        path: PathBuf,
    },
    /// A provider's block breaks the file's schema; `what` says how.
    #[error("the auth file {} {what}; fix it, or store the account again", path.display())]
    Malformed {
        /// The auth file.
        path: PathBuf,
        /// The provider whose block is at fault.
        provider: String,
        /// What is wrong, e.g. `names account `a` of provider `p` twice`.
        what: String,
    },
    /// The file could not be locked, created or replaced.
    #[error("cannot {action} the auth file {}: {source}", path.display())]
    Write {
        /// The auth file.
        path: PathBuf,
        /// What was being done (`lock`, `write`, `replace`…).
        action: &'static str,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The account to renew was removed by another process meanwhile.
    #[error("account `{account}` of provider `{provider}` was removed from {} meanwhile", path.display())]
    AccountRemoved {
        /// The auth file.
        path: PathBuf,
        /// The provider.
        provider: String,
        /// The account.
        account: String,
    },
    /// An expired access token has no token endpoint to renew it at.
    #[error(
        "the access token of account `{account}` of provider `{provider}` has expired and no token endpoint is known to renew it; set `provider.{provider}.token-url` (and `provider.{provider}.client-id` if it needs one), or store a fresh credential"
    )]
    NoTokenEndpoint {
        /// The provider.
        provider: String,
        /// The account.
        account: String,
    },
    /// The token endpoint refused or failed the renewal.
    #[error(
        "the access token of account `{account}` of provider `{provider}` has expired and could not be renewed: {source}; sign in again and store the new credential"
    )]
    RenewFailed {
        /// The provider.
        provider: String,
        /// The account.
        account: String,
        /// What the endpoint said (never a token).
        source: RenewError,
    },
}

fn unreadable(path: &Path, source: std::io::Error) -> AuthError {
    AuthError::Unreadable {
        path: path.to_owned(),
        source,
    }
}

/// The largest auth file read, in bytes.
const MAX_BYTES: usize = 1 << 20;

/// The UTF-8 text of the file at `path`, reading at most `limit` bytes (a longer file — or
/// `/dev/zero` behind a symlink — is refused, not read whole).
///
/// # Errors
/// The I/O error; `InvalidData` for a file over `limit` or not UTF-8 (the message says which).
pub fn read_bounded(path: &Path, limit: usize) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(limit as u64 + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("it is longer than {limit} bytes"),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not UTF-8 text"))
}

/// The text of the auth file, or `None` when it does not exist.
///
/// # Errors
/// A usage error when it cannot be read or others may read it.
fn read(path: &Path) -> Result<Option<String>, AuthError> {
    read_checked(path, true)
}

/// As [`read`]; `check_mode: false` reads a file others may read too (its keys are not used,
/// but they are still secrets to redact).
fn read_checked(path: &Path, check_mode: bool) -> Result<Option<String>, AuthError> {
    let text = match read_bounded(path, MAX_BYTES) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(unreadable(path, e)),
    };
    if smith_config::kdl::nesting(&text) > smith_ai::catalog::MAX_NESTING {
        return Err(AuthError::TooDeep {
            path: path.to_owned(),
            max: smith_ai::catalog::MAX_NESTING,
        });
    }
    if check_mode && let Some(mode) = open_to_others(path) {
        return Err(AuthError::OpenToOthers {
            path: path.to_owned(),
            mode,
        });
    }
    Ok(Some(text))
}

fn parse(path: &Path, text: &str) -> Result<kdl::KdlDocument, AuthError> {
    kdl::KdlDocument::parse(text).map_err(|_| AuthError::NotKdl {
        path: path.to_owned(),
    })
}

fn provider_node<'d>(doc: &'d kdl::KdlDocument, id: &str) -> Option<&'d kdl::KdlNode> {
    doc.nodes().iter().find(|n| {
        n.name().value() == "provider"
            && n.entries().first().and_then(|e| e.value().as_string()) == Some(id)
    })
}

/// The ids of the providers the auth file at `path` holds accounts for, in file order; empty
/// when it does not exist. Read whatever the file's mode (for redaction).
///
/// # Errors
/// [`AuthError`] when the file cannot be read or is not valid KDL.
pub fn providers(path: &Path) -> Result<Vec<String>, AuthError> {
    let Some(text) = read_checked(path, false)? else {
        return Ok(Vec::new());
    };
    let mut ids: Vec<String> = parse(path, &text)?
        .nodes()
        .iter()
        .filter(|n| n.name().value() == "provider")
        .filter_map(|n| n.entries().first()?.value().as_string().map(str::to_owned))
        .collect();
    ids.dedup();
    Ok(ids)
}

/// Where provider `id`'s key is found: the environment variable `variable` (non-empty), or
/// the auth file at `path` (an account for `id`); `None` when neither holds one. Nothing is
/// checked with the provider.
///
/// # Errors
/// [`AuthError`] when the variable is unset and the auth file cannot be used (see
/// [`accounts`]).
pub fn key_source(path: &Path, id: &str, variable: &str) -> Result<Option<KeySource>, AuthError> {
    if std::env::var(variable).is_ok_and(|v| !v.is_empty()) {
        return Ok(Some(KeySource::Environment));
    }
    Ok((!accounts(path, id)?.is_empty()).then_some(KeySource::AuthFile))
}

/// Where a provider's key comes from ([`key_source`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySource {
    /// Its environment variable.
    Environment,
    /// The auth file.
    AuthFile,
}

impl KeySource {
    /// Its name in `smith auth status --json` (`environment`, `auth-file`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Environment => "environment",
            Self::AuthFile => "auth-file",
        }
    }
}

/// The accounts of provider `id` in the auth file at `path`, in file order: `api-key`
/// (labelled `auth-file`), then each `account "NAME" { … }`. Empty when the file does not
/// exist or names none.
///
/// # Errors
/// [`AuthError`] when the file cannot be read, is not valid KDL, is readable by others, or
/// names an account twice, without a name, or without a complete secret.
pub fn accounts(path: &Path, id: &str) -> Result<Vec<Account>, AuthError> {
    let Some(text) = read(path)? else {
        return Ok(Vec::new());
    };
    accounts_in(path, &parse(path, &text)?, id)
}

/// The accounts of provider `id` as [`accounts`] reads them, whatever the file's mode: a file
/// others may read is not used for requests, but its keys are still secrets to redact.
///
/// # Errors
/// As [`accounts`], except for the mode.
pub fn accounts_to_redact(path: &Path, id: &str) -> Result<Vec<Account>, AuthError> {
    Ok(accounts_to_redact_of(path, &[id])?
        .pop()
        .map(|(_, accounts)| accounts)
        .unwrap_or_default())
}

/// The accounts of each provider of `ids`, in that order, as [`accounts_to_redact`] reads
/// them, the file read and parsed once.
///
/// # Errors
/// As [`accounts_to_redact`].
pub fn accounts_to_redact_of<'a>(
    path: &Path,
    ids: &[&'a str],
) -> Result<Vec<(&'a str, Vec<Account>)>, AuthError> {
    let Some(text) = read_checked(path, false)? else {
        return Ok(Vec::new());
    };
    let doc = parse(path, &text)?;
    ids.iter()
        .map(|id| Ok((*id, accounts_in(path, &doc, id)?)))
        .collect()
}

fn accounts_in(path: &Path, doc: &kdl::KdlDocument, id: &str) -> Result<Vec<Account>, AuthError> {
    let mut out: Vec<Account> = Vec::new();
    let bad = |what: String| AuthError::Malformed {
        path: path.to_owned(),
        provider: id.to_owned(),
        what,
    };
    let blocks = doc
        .nodes()
        .iter()
        .filter(|n| {
            n.name().value() == "provider"
                && n.entries().first().and_then(|e| e.value().as_string()) == Some(id)
        })
        .count();
    if blocks > 1 {
        return Err(bad(format!(
            "has {blocks} `provider \"{id}\"` blocks; merge them into one"
        )));
    }
    let Some(children) = provider_node(doc, id).and_then(kdl::KdlNode::children) else {
        return Ok(out);
    };
    for child in children.nodes() {
        let (label, secret) = match child.name().value() {
            "api-key" => {
                let key = child.entries().first().and_then(|e| e.value().as_string());
                (
                    DEFAULT_ACCOUNT.to_owned(),
                    key.filter(|k| !k.is_empty())
                        .map(|k| Secret::Key(k.to_owned())),
                )
            }
            "account" => {
                let Some(name) = child
                    .entries()
                    .first()
                    .and_then(|e| e.value().as_string())
                    .filter(|n| !n.is_empty())
                else {
                    return Err(bad(format!(
                        "has an `account` of provider `{id}` without a name (account \"NAME\" {{ api-key \"…\" }})"
                    )));
                };
                let c = child.children();
                let string = |k: &str| {
                    c.and_then(|c| c.get_arg(k))
                        .and_then(kdl::KdlValue::as_string)
                        .filter(|v| !v.is_empty())
                        .map(str::to_owned)
                };
                let expires = c
                    .and_then(|c| c.get_arg("expires-at"))
                    .and_then(kdl::KdlValue::as_integer)
                    .and_then(|i| i64::try_from(i).ok());
                let secret = match (
                    string("api-key"),
                    string("access-token"),
                    expires,
                    string("refresh-token"),
                ) {
                    (Some(key), None, None, None) => Some(Secret::Key(key)),
                    (None, Some(access), Some(expires_at), Some(refresh)) => {
                        Some(Secret::Renewable(Renewable {
                            access,
                            expires_at,
                            refresh,
                        }))
                    }
                    (None, None, None, None) => None,
                    _ => {
                        return Err(bad(format!(
                            "gives account `{name}` of provider `{id}` an incomplete secret: either `api-key`, or all of `access-token`, `expires-at` (Unix seconds) and `refresh-token`"
                        )));
                    }
                };
                (name.to_owned(), secret)
            }
            other => {
                return Err(bad(format!(
                    "has `{other}` in provider `{id}`, which is neither `api-key` nor `account` (a typo?)"
                )));
            }
        };
        if label == DEFAULT_ACCOUNT && child.name().value() == "account"
            || label.starts_with("env:")
            || label.chars().any(|c| c.is_control() || c.is_whitespace())
        {
            return Err(bad(format!(
                "names an account of provider `{id}` {label:?}, which is reserved or holds spaces or control characters; rename it"
            )));
        }
        if secret.as_ref().is_some_and(|s| {
            let v = match s {
                Secret::Key(k) => k.as_str(),
                Secret::Renewable(r) => {
                    if r.refresh.chars().any(char::is_control) {
                        return true;
                    }
                    r.access.as_str()
                }
            };
            v.chars().any(char::is_control)
        }) {
            return Err(bad(format!(
                "gives account `{label}` of provider `{id}` a secret holding a control character (a newline?), which no request header can carry"
            )));
        }
        let Some(secret) = secret else {
            return Err(bad(format!(
                "names account `{label}` of provider `{id}` without a secret"
            )));
        };
        if out.iter().any(|(l, _)| *l == label) {
            return Err(bad(if label == DEFAULT_ACCOUNT {
                format!(
                    "gives provider `{id}` two `api-key` lines; keep one, or make the other a named account"
                )
            } else {
                format!(
                    "names account `{label}` of provider `{id}` twice; account names are unique per provider"
                )
            }));
        }
        out.push((label, secret));
    }
    Ok(out)
}

/// Change provider `id`'s accounts in the auth file at `path` under the exclusive lock:
/// `change` gets the current accounts (empty for a new file) and edits them; the file is
/// rewritten whole with every other provider kept. Returns what `change` returned.
///
/// # Errors
/// [`AuthError`] when the file cannot be locked, read, parsed or replaced, or `change` fails.
pub fn update<T>(
    path: &Path,
    id: &str,
    change: impl FnOnce(&mut Vec<Account>) -> Result<T, AuthError>,
) -> Result<T, AuthError> {
    let fail = |action: &'static str, source: std::io::Error| AuthError::Write {
        path: path.to_owned(),
        action,
        source,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| fail("create the folder of", e))?;
    let _lock = lock_beside(path).map_err(|e| fail("lock", e))?;
    let text = read(path)?.unwrap_or_default();
    let mut doc = parse(path, &text)?;
    let mut accounts = accounts_in(path, &doc, id)?;
    let result = change(&mut accounts)?;
    let mut entry = parse(path, &provider_text(id, &accounts))?;
    let at = doc.nodes().iter().position(|n| {
        n.name().value() == "provider"
            && n.entries().first().and_then(|e| e.value().as_string()) == Some(id)
    });
    match at {
        Some(at) => doc.nodes_mut()[at] = entry.nodes_mut().remove(0),
        None => doc.nodes_mut().append(entry.nodes_mut()),
    }
    replace_private(path, doc.to_string().as_bytes()).map_err(|e| fail("replace", e))?;
    Ok(result)
}

/// The permission bits of the private file at `path` when others may read or write it (`None`
/// when only its owner may, or where permissions are not Unix modes).
pub(crate) fn open_to_others(path: &Path) -> Option<u32> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or(0);
        (mode & 0o077 != 0).then_some(mode)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Take the exclusive lock on `PATH.lock` (created when missing, its folder too): the lock
/// every change of a private file (`auth.kdl`, `secrets.kdl`) holds. Released when the returned
/// file is dropped.
///
/// # Errors
/// The I/O error.
pub(crate) fn lock_beside(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(PathBuf::from(name))?;
    lock.lock()?;
    Ok(lock)
}

/// Replace the file at `path` whole with `contents`: a 0600 temporary file beside it, synced,
/// renamed into place, the folder synced.
///
/// # Errors
/// The I/O error (the temporary file is removed).
pub(crate) fn replace_private(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut name = path.as_os_str().to_owned();
    name.push(format!(".tmp-{}", std::process::id()));
    let temp = PathBuf::from(name);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&temp)?;
    let written = file.write_all(contents).and_then(|()| file.sync_all());
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    std::fs::rename(&temp, path)?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// The KDL node of provider `id` holding `accounts`.
fn provider_text(id: &str, accounts: &[Account]) -> String {
    let q = |s: &str| kdl::KdlValue::String(s.to_owned()).to_string();
    let mut node = format!("provider {} {{\n", q(id));
    for (label, secret) in accounts {
        match secret {
            Secret::Key(key) if label == DEFAULT_ACCOUNT => {
                node.push_str(&format!("    api-key {}\n", q(key)));
            }
            Secret::Key(key) => node.push_str(&format!(
                "    account {} {{\n        api-key {}\n    }}\n",
                q(label),
                q(key)
            )),
            Secret::Renewable(r) => node.push_str(&format!(
                "    account {} {{\n        access-token {}\n        expires-at {}\n        refresh-token {}\n    }}\n",
                q(label),
                q(&r.access),
                r.expires_at,
                q(&r.refresh)
            )),
        }
    }
    node.push_str("}\n");
    node
}

/// Seconds since the Unix epoch, now.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Renew account `label` of provider `id` when it is renewable and (re-read under the lock,
/// so another process's renewal is used, not repeated) needs it; store the new tokens and
/// return the secret to use.
///
/// # Errors
/// [`AuthError`] when the account vanished, the provider has no token endpoint, or the
/// endpoint refused; the message names the account and the fix, never a token.
pub fn renew(
    path: &Path,
    id: &str,
    label: &str,
    endpoint: Option<&TokenEndpoint>,
) -> Result<Secret, AuthError> {
    update(path, id, |accounts| {
        let Some((_, secret)) = accounts.iter_mut().find(|(l, _)| l == label) else {
            return Err(AuthError::AccountRemoved {
                path: path.to_owned(),
                provider: id.to_owned(),
                account: label.to_owned(),
            });
        };
        let Secret::Renewable(current) = secret else {
            return Ok(secret.clone());
        };
        let now = now();
        if !current.needs_renewal(now) {
            return Ok(secret.clone());
        }
        let Some(endpoint) = endpoint else {
            return Err(AuthError::NoTokenEndpoint {
                provider: id.to_owned(),
                account: label.to_owned(),
            });
        };
        let renewed = smith_ai::credentials::renew(
            &smith_ai::http::HttpEngine::default(),
            endpoint,
            current,
            now,
            &smith::Cancel::new(),
        )
        .map_err(|source| AuthError::RenewFailed {
            provider: id.to_owned(),
            account: label.to_owned(),
            source,
        })?;
        *secret = Secret::Renewable(renewed);
        Ok(secret.clone())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_are_read_in_order_and_an_open_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth.kdl");
        assert!(accounts(&path, "anthropic").unwrap().is_empty());
        std::fs::write(
            &path,
            "provider \"anthropic\" {\n    api-key \"sk-secret-1\"\n    account \"sso\" {\n        access-token \"at\"\n        expires-at 100\n        refresh-token \"rt\"\n    }\n}\nprovider \"google\" { api-key \"g\" }\n",
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            let got = accounts(&path, "anthropic").unwrap();
            assert_eq!(got.len(), 2);
            assert_eq!(got[0].0, "auth-file");
            assert_eq!(got[0].1.value(), "sk-secret-1");
            assert!(matches!(&got[1].1, Secret::Renewable(r) if r.expires_at == 100));
            assert_eq!(accounts(&path, "google").unwrap()[0].1.value(), "g");
            assert!(accounts(&path, "openai").unwrap().is_empty());
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let err = accounts(&path, "anthropic").unwrap_err().to_string();
            assert!(
                err.contains("chmod 600") && !err.contains("sk-secret"),
                "{err}"
            );
        }
    }

    #[test]
    fn incomplete_or_repeated_accounts_are_refused_by_name() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth.kdl");
        for (text, needle) in [
            (
                "provider \"p\" { account \"a\" { access-token \"x\" } }",
                "incomplete secret",
            ),
            (
                "provider \"p\" { account \"a\" { api-key \"x\" }\n account \"a\" { api-key \"y\" } }",
                "twice",
            ),
            (
                "provider \"p\" { account { api-key \"x\" } }",
                "without a name",
            ),
            ("provider \"p\" { account \"a\" }", "without a secret"),
            (
                "provider \"p\" { api-key \"k1\" }\nprovider \"p\" { api-key \"k2\" }",
                "2 `provider \"p\"` blocks",
            ),
            ("provider \"p\" { apikey \"k1\" }", "has `apikey`"),
            (
                "provider \"p\" { api-key \"k1\"\n api-key \"k2\" }",
                "two `api-key` lines",
            ),
            (
                "provider \"p\" { api-key \"k1\\nsecret\" }",
                "control character",
            ),
            (
                "provider \"p\" { account \"auth-file\" { api-key \"k\" } }",
                "reserved",
            ),
            (
                "provider \"p\" { account \"env:X\" { api-key \"k\" } }",
                "reserved",
            ),
            (
                format!("provider \"p\" {}", "{ ".repeat(100)).as_str(),
                "deeper than",
            ),
        ] {
            std::fs::write(&path, text).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            }
            let err = accounts(&path, "p").unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }
}
