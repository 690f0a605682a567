//! The native-messaging manifest that tells Firefox where this host lives.

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

/// Where Firefox looks for per-user host manifests.
pub fn manifest_dir(home: &Path) -> PathBuf {
    if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Mozilla/NativeMessagingHosts")
    } else {
        home.join(".mozilla/native-messaging-hosts")
    }
}

pub fn manifest_path(home: &Path) -> PathBuf {
    manifest_dir(home).join(format!("{NATIVE_HOST_NAME}.json"))
}

pub fn home() -> io::Result<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "HOME is not set"))
}

/// Writes the manifest for `host` (an absolute path) and returns where it went.
pub fn install(home: &Path, host: &Path, extension_id: &str) -> io::Result<PathBuf> {
    if !host.is_absolute() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "host path must be absolute",
        ));
    }
    let path = manifest_path(home);
    fs::create_dir_all(manifest_dir(home))?;
    let json = serde_json::to_string_pretty(&NativeManifest::new(host.into(), extension_id))?;
    fs::write(&path, json + "\n")?;
    Ok(path)
}

/// Removes the manifest; `Ok(false)` when there was none.
pub fn uninstall(home: &Path) -> io::Result<bool> {
    match fs::remove_file(manifest_path(home)) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

pub fn read(home: &Path) -> io::Result<NativeManifest> {
    let text = fs::read_to_string(manifest_path(home))?;
    serde_json::from_str(&text).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn relative_host_paths_are_refused() {
        let home = tempfile::tempdir().unwrap();
        assert!(install(home.path(), Path::new("target/claudezilla-host"), "x@y").is_err());
    }
}
