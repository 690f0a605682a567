//! `firefox_screenshot {savePath}`: the host writes the picture to the user's disk and answers
//! with the path instead of the bytes.

use std::io::Write;
use std::path::{Path, PathBuf};

use base64::Engine;
use claudezilla_protocol::{ErrorBody, ErrorCode, Reply};

/// A checked destination: absolute, in an existing folder, not an existing file unless
/// overwriting was asked for.
#[derive(Debug)]
pub struct Target {
    path: PathBuf,
    overwrite: bool,
}

fn invalid(message: String) -> ErrorBody {
    ErrorBody::new(ErrorCode::InvalidArgument, message)
}

impl Target {
    pub fn check(path: &str, overwrite: bool) -> Result<Self, ErrorBody> {
        let p = Path::new(path);
        if !p.is_absolute() {
            return Err(invalid(format!("savePath {path:?} is not absolute")));
        }
        if !p.parent().is_some_and(Path::is_dir) {
            return Err(invalid(format!("the folder of {path:?} does not exist")));
        }
        if p.is_dir() {
            return Err(invalid(format!("savePath {path:?} is a folder")));
        }
        if p.exists() && !overwrite {
            return Err(invalid(format!("{path:?} exists"))
                .with_hint("pass overwrite: true to replace it, or choose another path"));
        }
        Ok(Self {
            path: p.to_owned(),
            overwrite,
        })
    }

    /// Writes the screenshot in `reply` and turns it into a `Saved` answer.
    pub fn write(self, reply: Reply) -> Result<Reply, ErrorBody> {
        let Reply::Screenshot(shot) = reply else {
            return Ok(reply);
        };
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(&shot.data)
            .map_err(|e| ErrorBody::new(ErrorCode::Internal, format!("screenshot data: {e}")))?;
        let failed = |e: std::io::Error| {
            ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!("cannot write {}: {e}", self.path.display()),
            )
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .create_new(!self.overwrite)
            .open(&self.path)
            .map_err(failed)?;
        file.write_all(&bytes).map_err(failed)?;
        Ok(Reply::Saved {
            path: self.path.display().to_string(),
            bytes: bytes.len() as u64,
            width: shot.width,
            height: shot.height,
            notes: shot.notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use claudezilla_protocol::TabId;
    use claudezilla_protocol::reply::Screenshot;

    fn shot() -> Reply {
        Reply::Screenshot(Screenshot {
            tab_id: TabId(1),
            mime: "image/jpeg".into(),
            data: "AQID".into(),
            width: 2,
            height: 1,
            quality: 60,
            scale: 0.5,
            notes: vec![],
            marks: vec![],
        })
    }

    #[test]
    fn writes_once_and_refuses_to_overwrite_unless_told() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jpg");
        let p = path.to_str().unwrap();
        let saved = Target::check(p, false).unwrap().write(shot()).unwrap();
        assert!(matches!(saved, Reply::Saved { bytes: 3, .. }));
        assert_eq!(std::fs::read(&path).unwrap(), [1, 2, 3]);
        assert!(
            Target::check(p, false)
                .unwrap_err()
                .hint
                .unwrap()
                .contains("overwrite")
        );
        Target::check(p, true).unwrap().write(shot()).unwrap();
    }

    #[test]
    fn refuses_relative_paths_missing_folders_and_folders() {
        let dir = tempfile::tempdir().unwrap();
        assert!(Target::check("shot.jpg", false).is_err());
        assert!(Target::check(dir.path().join("no/such/x.jpg").to_str().unwrap(), false).is_err());
        assert!(Target::check(dir.path().to_str().unwrap(), true).is_err());
    }
}
