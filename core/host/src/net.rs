//! Which hosts a plugin's network effects may reach: the host patterns of a manifest's
//! `net-host` nodes and of the user's `plugins.ID.net.allow` / `.deny` settings, and the
//! address rule every resolved address meets before a connection (spec: Security — plugins get
//! only what they are granted; the plugins guide, "Network").
//!
//! A pattern is `HOST` or `HOST:PORT`. `HOST` is a name (`api.example.com`), an IP address
//! (`127.0.0.1`, `[::1]`), `*.example.com` (every name under `example.com`, not the name
//! itself) or `*` (every host). `PORT` is a number or `*`; without one the pattern covers the
//! scheme's default port only (80 for `http`, 443 for `https`). A host name that resolves to a
//! loopback, private, link-local, shared, documentation, multicast, broadcast or unspecified
//! address is reached only through a pattern that names the host itself — never through `*`
//! or `*.example.com` — so a plugin granted "the web" cannot reach the user's router, a
//! cloud metadata service or a server on their own machine.

use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// One host pattern (see the module documentation for the syntax).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostPattern {
    host: HostPart,
    port: PortPart,
    text: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum HostPart {
    /// `*`.
    Any,
    /// `*.SUFFIX`: names ending in `.SUFFIX`.
    Under(String),
    /// A name or an address, lowercase, an IPv6 address without brackets.
    Exact(String),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PortPart {
    Default,
    Any,
    Number(u16),
}

/// A host pattern that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a host pattern: {why}; write HOST or HOST:PORT, e.g. `api.example.com`, `*.example.com:443`, `127.0.0.1:8080` or `*`"
)]
pub struct BadPattern {
    /// The pattern as written.
    pub text: String,
    /// What is wrong.
    pub why: String,
}

impl std::str::FromStr for HostPattern {
    type Err = BadPattern;

    fn from_str(text: &str) -> Result<Self, BadPattern> {
        let bad = |why: &str| BadPattern {
            text: text.to_owned(),
            why: why.to_owned(),
        };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(bad("it is empty"));
        }
        if trimmed.contains("://") || trimmed.contains('/') {
            return Err(bad("it holds a scheme or a path; name the host only"));
        }
        let (host, port) = if let Some(rest) = trimmed.strip_prefix('[') {
            let (addr, after) = rest
                .split_once(']')
                .ok_or_else(|| bad("an IPv6 address in `[` has no `]`"))?;
            let port = match after {
                "" => None,
                p => Some(
                    p.strip_prefix(':')
                        .ok_or_else(|| bad("after `]` comes `:PORT` or nothing"))?,
                ),
            };
            addr.parse::<Ipv6Addr>()
                .map_err(|_| bad("the text in `[…]` is not an IPv6 address"))?;
            (addr.to_owned(), port)
        } else if trimmed.matches(':').count() > 1 {
            return Err(bad("an IPv6 address is written in brackets, `[::1]:8080`"));
        } else {
            match trimmed.split_once(':') {
                Some((h, p)) => (h.to_owned(), Some(p)),
                None => (trimmed.to_owned(), None),
            }
        };
        let port = match port {
            None => PortPart::Default,
            Some("*") => PortPart::Any,
            Some(p) => PortPart::Number(
                p.parse::<u16>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| bad("the port is not a number from 1 to 65535 or `*`"))?,
            ),
        };
        let host = host.to_ascii_lowercase();
        let valid_name = |name: &str| {
            !name.is_empty()
                && name.split('.').all(|label| {
                    !label.is_empty()
                        && label.len() <= 63
                        && label
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
                })
        };
        let host = if host == "*" {
            HostPart::Any
        } else if let Some(suffix) = host.strip_prefix("*.") {
            if !valid_name(suffix) {
                return Err(bad("what follows `*.` is not a host name"));
            }
            HostPart::Under(suffix.to_owned())
        } else if host.parse::<IpAddr>().is_ok() || valid_name(&host) {
            HostPart::Exact(host)
        } else {
            return Err(bad(
                "the host is not a name, an address, `*` or `*.NAME` (a `*` stands only first, alone before a dot)",
            ));
        };
        Ok(Self {
            host,
            port,
            text: trimmed.to_owned(),
        })
    }
}

impl std::fmt::Display for HostPattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

impl HostPattern {
    /// Whether it covers `host` (lowercase, an IPv6 address without brackets) on `port`,
    /// whose scheme's default port is `default_port`.
    pub fn covers(&self, host: &str, port: u16, default_port: u16) -> bool {
        let port_ok = match self.port {
            PortPart::Default => port == default_port,
            PortPart::Any => true,
            PortPart::Number(n) => n == port,
        };
        port_ok
            && match &self.host {
                HostPart::Any => true,
                HostPart::Under(suffix) => host
                    .strip_suffix(suffix.as_str())
                    .is_some_and(|head| head.ends_with('.') && head.len() > 1),
                HostPart::Exact(name) => name == host,
            }
    }

    /// Whether it names one host itself (no `*` in its host part): only such a pattern
    /// reaches a non-public address.
    pub fn by_name(&self) -> bool {
        matches!(self.host, HostPart::Exact(_))
    }
}

/// Parse a list of patterns (a manifest's `net-host` values, or a setting's comma-separated
/// text split by the caller).
///
/// # Errors
/// The first pattern that cannot be read.
pub fn parse_patterns<'a>(
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<HostPattern>, BadPattern> {
    texts
        .into_iter()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect()
}

/// A credential the user bound to hosts for one plugin (`plugins.ID.net.credentials`, an
/// entry `HOST=SECRET` or `HOST=SECRET@HEADER`): on each request to a host `hosts` covers, the
/// host sets `header` to the registered secret `secret` — as `Bearer VALUE` in
/// `authorization` when no header is named, else the value alone — replacing the plugin's own
/// header of that name. The plugin never sees the value, and a request to another host (a
/// redirect's target included) never carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Credential {
    /// The hosts it is sent to.
    pub hosts: HostPattern,
    /// The registered secret's name.
    pub secret: String,
    /// The header it is sent in (lowercase).
    pub header: String,
    /// Whether it is sent as `Bearer VALUE`.
    pub bearer: bool,
}

impl std::str::FromStr for Credential {
    type Err = BadPattern;

    fn from_str(text: &str) -> Result<Self, BadPattern> {
        let bad = |why: &str| BadPattern {
            text: text.to_owned(),
            why: why.to_owned(),
        };
        let (hosts, rest) = text
            .trim()
            .rsplit_once('=')
            .ok_or_else(|| bad("a credential is HOST=SECRET or HOST=SECRET@HEADER"))?;
        let (secret, header) = match rest.split_once('@') {
            Some((secret, header)) => (secret, Some(header)),
            None => (rest, None),
        };
        let name_ok = !secret.is_empty()
            && secret.len() <= 64
            && secret
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
        if !name_ok {
            return Err(bad(
                "the secret is named by its name in Smith's secret store (1 to 64 of A-Z a-z 0-9 _ . -), e.g. MCP_TOKEN",
            ));
        }
        let header = match header {
            None => None,
            Some(h)
                if !h.is_empty()
                    && h.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)) =>
            {
                Some(h.to_ascii_lowercase())
            }
            Some(_) => return Err(bad("what follows `@` is not a header name")),
        };
        let hosts: HostPattern = hosts.parse()?;
        Ok(Self {
            hosts,
            secret: secret.to_owned(),
            bearer: header.is_none(),
            header: header.unwrap_or_else(|| "authorization".to_owned()),
        })
    }
}

/// Headers a plugin's request may not set: the HTTP engine sets them from the URL and the
/// body (`host`, `content-length`, `transfer-encoding`, `connection`, `te`, …), lowercase.
pub const HOST_SET_HEADERS: &[&str] = crate::net_imports::HOST_SET;

/// Whether header `name`'s value is left out of the records as a credential
/// (`authorization`, `cookie`, names holding `token`, `key`, `auth`, `secret`, …).
pub fn is_credential_header(name: &str) -> bool {
    crate::net_imports::credential(name)
}

/// The user's network rules for the plugins (`plugins.ID.net.allow`, `.deny` and
/// `.credentials`, from the user's own configuration only: a project's are dropped), by plugin
/// id.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetRules {
    /// Patterns added to each plugin's grant (only for a plugin that requests `net.http`).
    pub allow: BTreeMap<String, Vec<HostPattern>>,
    /// Patterns taken from each plugin's grant: a host one covers is refused.
    pub deny: BTreeMap<String, Vec<HostPattern>>,
    /// Credentials the host sets on each plugin's requests to the hosts they are bound to.
    pub credentials: BTreeMap<String, Vec<Credential>>,
}

/// What one plugin's network grant covers: the manifest's patterns, the user's allow patterns
/// added, the user's deny patterns taken away.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetGrant {
    /// The plugin id (for messages).
    pub plugin: String,
    /// Patterns that allow: the manifest's then the user's.
    pub allow: Vec<HostPattern>,
    /// Patterns that refuse, winning over `allow`.
    pub deny: Vec<HostPattern>,
    /// The credentials bound to hosts for it, in the user's order.
    pub credentials: Vec<Credential>,
}

/// Why a URL or an address is not covered. The text names the URL or address, the plugin
/// and the setting that would change it.
pub type Refusal = String;

impl NetGrant {
    /// The grant of `plugin` whose manifest names `manifest` patterns, under `rules`.
    pub fn of(plugin: &str, manifest: &[HostPattern], rules: &NetRules) -> Self {
        let mut allow = manifest.to_vec();
        allow.extend(rules.allow.get(plugin).into_iter().flatten().cloned());
        Self {
            plugin: plugin.to_owned(),
            allow,
            deny: rules.deny.get(plugin).cloned().unwrap_or_default(),
            credentials: rules.credentials.get(plugin).cloned().unwrap_or_default(),
        }
    }

    /// The first credential bound to `host:port` (whose scheme's port is `default_port`).
    pub fn credential(&self, host: &str, port: u16, default_port: u16) -> Option<&Credential> {
        self.credentials
            .iter()
            .find(|c| c.hosts.covers(host, port, default_port))
    }

    /// The first allow pattern covering `host:port`, unless a deny pattern covers it.
    ///
    /// # Errors
    /// Why not, naming the plugin, the host and port, and the setting that would allow it.
    pub fn permits(
        &self,
        host: &str,
        port: u16,
        default_port: u16,
    ) -> Result<&HostPattern, Refusal> {
        let shown = shown(host, port);
        if let Some(deny) = self
            .deny
            .iter()
            .find(|p| p.covers(host, port, default_port))
        {
            return Err(format!(
                "{shown} is refused by `{deny}` in the user's plugins.{}.net.deny",
                self.plugin
            ));
        }
        self.allow
            .iter()
            .find(|p| p.covers(host, port, default_port))
            .ok_or_else(|| {
                let granted = if self.allow.is_empty() {
                    "no host".to_owned()
                } else {
                    self.allow
                        .iter()
                        .map(|p| format!("`{p}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                format!(
                    "plugin {} may reach {granted}, not {shown}; the user can add `{shown}` to plugins.{}.net.allow",
                    self.plugin, self.plugin
                )
            })
    }

    /// Whether a connection to `addr`, which `host` resolved to, is allowed: a public address
    /// through any covering pattern, a non-public one only through a pattern that names
    /// `host` itself.
    ///
    /// # Errors
    /// Why not, naming the address, its kind and the setting that would allow it.
    pub fn connect(
        &self,
        host: &str,
        addr: std::net::SocketAddr,
        default_port: u16,
    ) -> Result<(), Refusal> {
        self.permits(host, addr.port(), default_port)?;
        let named = self
            .allow
            .iter()
            .any(|p| p.by_name() && p.covers(host, addr.port(), default_port));
        match special(addr.ip()) {
            Some(kind) if !named => {
                let is = if host.parse::<IpAddr>().is_ok() {
                    format!("{} is {kind}", shown(host, addr.port()))
                } else {
                    format!(
                        "{} resolves to {} ({kind})",
                        shown(host, addr.port()),
                        addr.ip()
                    )
                };
                Err(format!(
                    "{is}, which plugin {} reaches only when a pattern names that host itself — a wildcard such as `*` never covers it; the user can add `{}` to plugins.{}.net.allow",
                    self.plugin,
                    shown(host, addr.port()),
                    self.plugin
                ))
            }
            _ => Ok(()),
        }
    }
}

/// `host:port` as a pattern would name it (`[::1]:8080`).
fn shown(host: &str, port: u16) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// What kind of non-public address `ip` is, or `None` for a public one.
pub fn special(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => special_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return special_v4(v4);
            }
            let first = v6.segments()[0];
            if v6.is_loopback() {
                Some("a loopback address")
            } else if v6.is_unspecified() {
                Some("the unspecified address")
            } else if v6.is_multicast() {
                Some("a multicast address")
            } else if first & 0xfe00 == 0xfc00 {
                Some("a unique local (private) address")
            } else if first & 0xffc0 == 0xfe80 {
                Some("a link-local address")
            } else if first == 0x2001 && v6.segments()[1] == 0x0db8 {
                Some("a documentation address")
            } else if v6.segments()[..6] == [0; 6] {
                // IPv4-compatible (`::a.b.c.d`, deprecated): judge the IPv4 address.
                let o = v6.octets();
                special_v4(Ipv4Addr::new(o[12], o[13], o[14], o[15]))
                    .or(Some("an IPv4-compatible address"))
            } else if first == 0x2002 {
                // 6to4 embeds an IPv4 address in its next 32 bits.
                let o = v6.octets();
                special_v4(Ipv4Addr::new(o[2], o[3], o[4], o[5]))
            } else if first == 0x0064 && v6.segments()[1] == 0xff9b {
                // NAT64 embeds an IPv4 address; judge that one.
                let s = v6.segments();
                let v4 =
                    Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8);
                special_v4(v4)
            } else {
                None
            }
        }
    }
}

fn special_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Some("a loopback address")
    } else if ip.is_private() {
        Some("a private address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if ip.is_unspecified() || a == 0 {
        Some("an unspecified address")
    } else if ip.is_broadcast() {
        Some("the broadcast address")
    } else if ip.is_multicast() || a >= 240 {
        Some("a multicast or reserved address")
    } else if a == 100 && (64..128).contains(&b) {
        Some("a shared (carrier-grade NAT) address")
    } else if ip.is_documentation() || (a == 198 && (b == 18 || b == 19)) {
        Some("a documentation or benchmarking address")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> HostPattern {
        text.parse().unwrap()
    }

    #[test]
    fn patterns_cover_what_they_name_and_nothing_else() {
        assert!(p("example.com").covers("example.com", 443, 443));
        assert!(!p("example.com").covers("example.com", 8443, 443));
        assert!(p("example.com:8443").covers("example.com", 8443, 443));
        assert!(p("Example.COM:*").covers("example.com", 1, 80));
        assert!(p("*.example.com").covers("a.b.example.com", 80, 80));
        assert!(!p("*.example.com").covers("example.com", 80, 80));
        assert!(!p("*.example.com").covers("badexample.com", 80, 80));
        assert!(p("*").covers("anything.org", 443, 443));
        assert!(!p("*").covers("anything.org", 8080, 443));
        assert!(p("*:*").covers("anything.org", 8080, 443));
        assert!(p("[::1]:8080").covers("::1", 8080, 80));
        assert!(p("127.0.0.1:8080").by_name());
        assert!(!p("*.example.com").by_name());
        for bad in [
            "", "http://x", "x/y", "a*.b", "x:0", "x:70000", "::1", "[zz]", "*.",
        ] {
            assert!(bad.parse::<HostPattern>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_non_public_address_needs_a_pattern_naming_the_host() {
        let rules = NetRules::default();
        let wide = NetGrant::of("web", &[p("*:*")], &rules);
        let local: std::net::SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let public: std::net::SocketAddr = "93.184.216.34:443".parse().unwrap();
        let why = wide.connect("localhost", local, 80).unwrap_err();
        assert!(
            why.contains("loopback") && why.contains("plugins.web.net.allow"),
            "{why}"
        );
        assert!(wide.connect("example.com", public, 443).is_ok());
        let named = NetGrant::of("web", &[p("localhost:8080")], &rules);
        assert!(named.connect("localhost", local, 80).is_ok());
        // A wildcard first and the name after: the name decides.
        let mut widened = NetRules::default();
        widened
            .allow
            .insert("web".into(), vec![p("localhost:8080")]);
        let both = NetGrant::of("web", &[p("*:*")], &widened);
        assert!(both.connect("localhost", local, 80).is_ok());
        for addr in [
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::127.0.0.1",
            "2002:7f00:1::",
            "2002:a00:1::",
            "64:ff9b::a00:1",
        ] {
            assert!(special(addr.parse().unwrap()).is_some(), "{addr}");
        }
        assert!(special("2606:2800:220:1::1".parse().unwrap()).is_none());
        assert!(special("2002:5db8:d822::".parse().unwrap()).is_none());
    }

    #[test]
    fn credentials_read_as_host_secret_and_header() {
        let c: Credential = "mcp.example.com=MCP_TOKEN".parse().unwrap();
        assert_eq!(
            (c.secret.as_str(), c.header.as_str(), c.bearer),
            ("MCP_TOKEN", "authorization", true)
        );
        assert!(c.hosts.covers("mcp.example.com", 443, 443));
        let c: Credential = "127.0.0.1:8080=KEY@X-Api-Key".parse().unwrap();
        assert_eq!((c.header.as_str(), c.bearer), ("x-api-key", false));
        assert!(c.hosts.covers("127.0.0.1", 8080, 80));
        for bad in [
            "nohost",
            "=K",
            "h=",
            "h=bad name",
            "h=K@bad header",
            "h/x=K",
        ] {
            assert!(bad.parse::<Credential>().is_err(), "{bad}");
        }
    }

    #[test]
    fn the_users_deny_wins_and_allow_widens() {
        let mut rules = NetRules::default();
        rules.allow.insert("web".into(), vec![p("127.0.0.1:9000")]);
        rules
            .deny
            .insert("web".into(), vec![p("*.internal.example")]);
        let grant = NetGrant::of("web", &[p("*")], &rules);
        assert!(grant.permits("127.0.0.1", 9000, 80).is_ok());
        let why = grant.permits("a.internal.example", 443, 443).unwrap_err();
        assert!(why.contains("plugins.web.net.deny"), "{why}");
        let none = NetGrant::of("x", &[], &NetRules::default());
        let why = none.permits("example.com", 443, 443).unwrap_err();
        assert!(
            why.contains("no host") && why.contains("example.com:443"),
            "{why}"
        );
    }
}
