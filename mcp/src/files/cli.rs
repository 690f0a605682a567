//! The user's word on files, from the command line and the environment: the extra allowed
//! folders and where downloads land; and the client's `file://` roots as paths.

use std::ffi::OsString;
use std::path::PathBuf;

/// The environment variable naming extra allowed folders, separated like `PATH`.
pub const ENV_ALLOW_DIRS: &str = "CLAUDEZILLA_ALLOW_DIRS";
/// The environment variable naming the downloads folder.
pub const ENV_DOWNLOADS_DIR: &str = "CLAUDEZILLA_DOWNLOADS_DIR";
/// The environment variable naming the secrets file.
pub const ENV_SECRETS_FILE: &str = "CLAUDEZILLA_SECRETS_FILE";

const USAGE: &str =
    "usage: claudezilla-mcp [--allow-dir DIR]... [--downloads-dir DIR] [--secrets FILE]";

/// What the user said when starting the server.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Folders files may be read from and written to, besides the project.
    pub allow_dirs: Vec<PathBuf>,
    /// Where finished downloads go (else `downloads/` in the project).
    pub downloads_dir: Option<PathBuf>,
    /// The user's secrets file ([`crate::secrets`]).
    pub secrets_file: Option<PathBuf>,
}

impl Options {
    /// Reads `--allow-dir DIR` (repeatable), `--downloads-dir DIR`, `--secrets FILE` (each also
    /// as `--x=VALUE`), [`ENV_ALLOW_DIRS`], [`ENV_DOWNLOADS_DIR`] and `ENV_SECRETS_FILE` (the
    /// flag wins); anything else on the command line is an error.
    pub fn parse(
        args: impl IntoIterator<Item = OsString>,
        env: impl Fn(&str) -> Option<OsString>,
    ) -> Result<Self, String> {
        let mut out = Self {
            allow_dirs: env(ENV_ALLOW_DIRS)
                .map(|v| {
                    std::env::split_paths(&v)
                        .filter(|p| !p.as_os_str().is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            downloads_dir: env(ENV_DOWNLOADS_DIR)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            secrets_file: env(ENV_SECRETS_FILE)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.to_str().and_then(|a| a.split_once('=')) {
                Some((flag, value)) => (flag.to_owned(), Some(OsString::from(value))),
                None => (arg.to_string_lossy().into_owned(), None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or(format!("{flag} needs a path; {USAGE}"))
            };
            match flag.as_str() {
                "--allow-dir" => out.allow_dirs.push(value()?.into()),
                "--downloads-dir" => out.downloads_dir = Some(value()?.into()),
                "--secrets" => out.secrets_file = Some(value()?.into()),
                _ => return Err(format!("unknown argument {arg:?}; {USAGE}")),
            }
        }
        Ok(out)
    }
}

/// The local path of a `file://` root URI (MCP roots), if it is one.
pub fn root_path(uri: &str) -> Option<PathBuf> {
    root_path_on(uri, cfg!(windows)).map(PathBuf::from)
}

/// The rule of [`root_path`]; on Windows `file:///C:/p` is `C:/p` (a drive, not `/C:`).
fn root_path_on(uri: &str, windows: bool) -> Option<String> {
    let rest = uri.strip_prefix("file://")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .ok()?;
    let drive = |p: &str| {
        let b = p.as_bytes();
        b.len() >= 3 && b[1].is_ascii_alphabetic() && b[2] == b':'
    };
    match windows && drive(&decoded) {
        true => Some(decoded[1..].to_owned()),
        false => Some(decoded.into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_come_from_flags_and_the_environment() {
        let env = |k: &str| match k {
            ENV_ALLOW_DIRS => Some(OsString::from(if cfg!(windows) {
                "/c;/d"
            } else {
                "/c:/d"
            })),
            ENV_DOWNLOADS_DIR => Some("/dl-env".into()),
            _ => None,
        };
        let args = ["--allow-dir", "/a", "--allow-dir=/b"].map(OsString::from);
        let got = Options::parse(args, env).unwrap();
        assert_eq!(got.allow_dirs, ["/c", "/d", "/a", "/b"].map(PathBuf::from));
        assert_eq!(got.downloads_dir, Some("/dl-env".into()));
        let flag = Options::parse(["--downloads-dir", "/dl"].map(OsString::from), env).unwrap();
        assert_eq!(flag.downloads_dir, Some("/dl".into()), "the flag wins");
        let secrets = |k: &str| (k == ENV_SECRETS_FILE).then(|| OsString::from("/env.secrets"));
        let from_env = Options::parse([], secrets).unwrap();
        assert_eq!(from_env.secrets_file, Some("/env.secrets".into()));
        let flag = Options::parse(["--secrets=/s"].map(OsString::from), secrets).unwrap();
        assert_eq!(flag.secrets_file, Some("/s".into()), "the flag wins");
        let none = |_: &str| None;
        assert_eq!(
            Options::parse([], none).unwrap(),
            Options::default(),
            "nothing named: the project alone"
        );
        for bad in [
            &["--allow-dir"][..],
            &["--bogus"],
            &["--downloads-dir"],
            &["--secrets"],
        ] {
            let e = Options::parse(bad.iter().map(OsString::from), none).unwrap_err();
            assert!(e.contains("usage"), "{e}");
        }
    }

    #[test]
    fn root_uris_become_paths() {
        assert_eq!(
            root_path_on("file:///home/u/my%20proj", false).as_deref(),
            Some("/home/u/my proj")
        );
        assert_eq!(
            root_path_on("file://localhost/x", false).as_deref(),
            Some("/x")
        );
        assert_eq!(root_path_on("https://x/", false), None);
        assert_eq!(root_path_on("file://server/share", false), None);
    }

    #[test]
    fn a_windows_root_uri_is_a_drive_path() {
        let root = |uri, windows| root_path_on(uri, windows);
        assert_eq!(
            root("file:///C:/Users/Ada%20L/p", true).as_deref(),
            Some("C:/Users/Ada L/p")
        );
        assert_eq!(root("file:///C:/p", false).as_deref(), Some("/C:/p"));
        assert_eq!(root("file:///home/a", true).as_deref(), Some("/home/a"));
        assert_eq!(root("file://server/share", true), None);
    }
}
