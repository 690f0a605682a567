//! The native-messaging manifest that tells Firefox where this host lives. On Linux and macOS
//! Firefox finds it in a fixed folder; on Windows it asks the registry
//! (`HKCU\Software\Mozilla\NativeMessagingHosts\claudezilla`), whose default value is the
//! manifest's path.

// Writes, reads and removes the manifest file: one of the host's named file I/O modules.
#![allow(clippy::disallowed_methods)]

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use claudezilla_protocol::NATIVE_HOST_NAME;
use serde::{Deserialize, Serialize};

/// Firefox's native-messaging host manifest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NativeManifest {
    pub name: String,
    pub description: String,
    pub path: PathBuf,
    #[serde(rename = "type")]
    pub kind: String,
    pub allowed_extensions: Vec<String>,
}

impl NativeManifest {
    pub fn new(host: PathBuf, extension_id: &str) -> Self {
        Self {
            name: NATIVE_HOST_NAME.into(),
            description: "Claudezilla native messaging host".into(),
            path: host,
            kind: "stdio".into(),
            allowed_extensions: vec![extension_id.into()],
        }
    }
}

/// The registry key (under `HKEY_CURRENT_USER`) Firefox on Windows reads.
pub const REGISTRY_KEY: &str = r"Software\Mozilla\NativeMessagingHosts\claudezilla";

/// The desktops whose manifest places differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Desktop {
    Linux,
    MacOs,
    Windows,
}

impl Desktop {
    pub const CURRENT: Self = if cfg!(windows) {
        Self::Windows
    } else if cfg!(target_os = "macos") {
        Self::MacOs
    } else {
        Self::Linux
    };

    /// The environment variable naming the folder manifests live under.
    pub fn base_var(self) -> &'static str {
        match self {
            Self::Linux | Self::MacOs => "HOME",
            Self::Windows => "APPDATA",
        }
    }

    /// Where the manifest goes, under `base` (the home folder; `%APPDATA%` on Windows, where
    /// the place is ours to choose and the registry points at it).
    pub fn manifest_dir(self, base: &Path) -> PathBuf {
        let parts: &[&str] = match self {
            Self::Linux => &[".mozilla", "native-messaging-hosts"],
            Self::MacOs => &[
                "Library",
                "Application Support",
                "Mozilla",
                "NativeMessagingHosts",
            ],
            Self::Windows => &["Mozilla", "NativeMessagingHosts"],
        };
        parts
            .iter()
            .fold(base.to_owned(), |dir, part| dir.join(part))
    }
}

pub fn manifest_dir(base: &Path) -> PathBuf {
    Desktop::CURRENT.manifest_dir(base)
}

pub fn manifest_path(base: &Path) -> PathBuf {
    manifest_dir(base).join(format!("{NATIVE_HOST_NAME}.json"))
}

/// The folder manifests live under: `$HOME`, or `%APPDATA%` on Windows.
pub fn base_dir() -> io::Result<PathBuf> {
    let var = Desktop::CURRENT.base_var();
    std::env::var_os(var)
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("{var} is not set")))
}

/// Writes the manifest for `host` (an absolute path), registers it on Windows, and returns
/// where it went.
pub fn install(base: &Path, host: &Path, extension_id: &str) -> io::Result<PathBuf> {
    if !host.is_absolute() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "host path must be absolute",
        ));
    }
    let path = manifest_path(base);
    fs::create_dir_all(manifest_dir(base))?;
    let json = serde_json::to_string_pretty(&NativeManifest::new(host.into(), extension_id))?;
    fs::write(&path, json + "\n")?;
    #[cfg(windows)]
    registry::set(REGISTRY_KEY, &path)?;
    Ok(path)
}

/// Removes the manifest (and on Windows its registry key); `Ok(false)` when there was none.
pub fn uninstall(base: &Path) -> io::Result<bool> {
    #[cfg(windows)]
    let key_removed = registry::remove(REGISTRY_KEY)?;
    #[cfg(not(windows))]
    let key_removed = false;
    match fs::remove_file(manifest_path(base)) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(key_removed),
        Err(e) => Err(e),
    }
}

/// The manifest Firefox will read: on Windows, the one the registry names must be ours.
pub fn read(base: &Path) -> io::Result<NativeManifest> {
    let path = manifest_path(base);
    #[cfg(windows)]
    registry::check(REGISTRY_KEY, &path)?;
    let text = fs::read_to_string(path)?;
    serde_json::from_str(&text).map_err(io::Error::other)
}

#[cfg(windows)]
mod registry {
    use std::io;
    use std::path::Path;

    use winreg::RegKey;
    use winreg::enums::HKEY_CURRENT_USER;

    /// Names `manifest` in the default value of `HKCU\<path>`.
    pub fn set(path: &str, manifest: &Path) -> io::Result<()> {
        let (key, _) = RegKey::predef(HKEY_CURRENT_USER).create_subkey(path)?;
        key.set_value("", &manifest.as_os_str())
    }

    pub fn remove(path: &str) -> io::Result<bool> {
        match RegKey::predef(HKEY_CURRENT_USER).delete_subkey_all(path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    pub fn check(path: &str, manifest: &Path) -> io::Result<()> {
        let key = RegKey::predef(HKEY_CURRENT_USER)
            .open_subkey(path)
            .map_err(|e| io::Error::new(e.kind(), format!("HKCU\\{path}: {e}")))?;
        let named: std::ffi::OsString = key.get_value("")?;
        if Path::new(&named) != manifest {
            return Err(io::Error::other(format!(
                "HKCU\\{path} names {}, not {}",
                Path::new(&named).display(),
                manifest.display()
            )));
        }
        Ok(())
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// On a scratch key, never the user's own (run under Wine by `cargo xtask test`).
        #[test]
        fn the_key_names_the_manifest_and_goes_away() {
            let scratch = format!(r"Software\ClaudezillaTest-{}", std::process::id());
            let manifest = Path::new(r"C:\Users\Ada\AppData\Roaming\m.json");
            set(&scratch, manifest).unwrap();
            check(&scratch, manifest).unwrap();
            let other = check(&scratch, Path::new(r"C:\elsewhere.json")).unwrap_err();
            assert!(other.to_string().contains("elsewhere"), "{other}");
            assert!(remove(&scratch).unwrap());
            assert!(!remove(&scratch).unwrap());
            let gone = check(&scratch, manifest).unwrap_err();
            assert_eq!(gone.kind(), io::ErrorKind::NotFound, "{gone}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Not on Windows: there it would replace the user's own registry key.
    #[cfg(not(windows))]
    #[test]
    fn install_writes_what_firefox_expects_and_uninstall_removes_it() {
        let home = tempfile::tempdir().unwrap();
        let path = install(home.path(), Path::new("/opt/cz/claudezilla-host"), "x@y").unwrap();
        assert!(path.ends_with("claudezilla.json"));
        let v: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["name"], "claudezilla");
        assert_eq!(v["type"], "stdio");
        assert_eq!(v["path"], "/opt/cz/claudezilla-host");
        assert_eq!(v["allowed_extensions"], serde_json::json!(["x@y"]));
        assert_eq!(read(home.path()).unwrap().allowed_extensions, ["x@y"]);
        assert!(uninstall(home.path()).unwrap());
        assert!(!uninstall(home.path()).unwrap());
    }

    #[test]
    fn each_desktop_has_its_place() {
        let base = Path::new("/b");
        let dir = |d: Desktop| d.manifest_dir(base);
        assert_eq!(
            dir(Desktop::Linux),
            Path::new("/b/.mozilla/native-messaging-hosts")
        );
        assert_eq!(
            dir(Desktop::MacOs),
            Path::new("/b/Library/Application Support/Mozilla/NativeMessagingHosts")
        );
        assert_eq!(
            dir(Desktop::Windows),
            Path::new("/b/Mozilla/NativeMessagingHosts")
        );
        assert_eq!(Desktop::Windows.base_var(), "APPDATA");
        assert_eq!(
            REGISTRY_KEY.split('\\').collect::<Vec<_>>(),
            [
                "Software",
                "Mozilla",
                "NativeMessagingHosts",
                NATIVE_HOST_NAME
            ]
        );
    }

    #[test]
    fn a_windows_host_path_survives_the_json() {
        let exe = r"C:\Users\Ada Lovelace\.cargo\bin\claudezilla-host.exe";
        let json = serde_json::to_string(&NativeManifest::new(PathBuf::from(exe), "x@y")).unwrap();
        assert!(
            json.contains(r#""path":"C:\\Users\\Ada Lovelace"#),
            "{json}"
        );
        let back: NativeManifest = serde_json::from_str(&json).unwrap();
        assert_eq!(back.path, Path::new(exe));
    }

    #[test]
    fn relative_host_paths_are_refused() {
        let home = tempfile::tempdir().unwrap();
        assert!(install(home.path(), Path::new("target/claudezilla-host"), "x@y").is_err());
    }
}
