//! `firefox_upload_file`: the host reads the file from the user's disk and attaches its bytes,
//! size-capped so the request still fits one native message (1 MiB).

use std::path::Path;

use base64::Engine;
use claudezilla_protocol::args::{FileData, MAX_UPLOAD_BYTES, UploadFileArgs};
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Fills `args.file` from `args.path`.
pub fn attach(args: &mut UploadFileArgs) -> Result<(), ErrorBody> {
    let path = Path::new(&args.path);
    let meta = std::fs::metadata(path).map_err(|e| {
        ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    if !meta.is_file() {
        return Err(ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!("{} is not a regular file", path.display()),
        ));
    }
    if meta.len() > MAX_UPLOAD_BYTES {
        return Err(ErrorBody::new(
            ErrorCode::TooLarge,
            format!(
                "{} is {} bytes; at most {MAX_UPLOAD_BYTES} bytes can be uploaded",
                path.display(),
                meta.len()
            ),
        )
        .with_hint(
            "Firefox takes at most 1 MiB per message from the host; upload a smaller file",
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| {
        ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    args.file = Some(FileData {
        mime: mime_for(&name).into(),
        name,
        base64: base64::engine::general_purpose::STANDARD.encode(bytes),
    });
    Ok(())
}

fn mime_for(name: &str) -> &'static str {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "txt" | "log" | "md" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "pdf" => "application/pdf",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "zip" => "application/zip",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(path: &Path) -> UploadFileArgs {
        UploadFileArgs {
            selector: Some("input".into()),
            element_ref: None,
            path: path.to_string_lossy().into(),
            file: None,
            tab_id: None,
        }
    }

    #[test]
    fn reads_names_and_encodes_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.txt");
        std::fs::write(&path, "hello").unwrap();
        let mut a = args(&path);
        attach(&mut a).unwrap();
        let file = a.file.unwrap();
        assert_eq!(
            (file.name.as_str(), file.mime.as_str(), file.base64.as_str()),
            ("notes.txt", "text/plain", "aGVsbG8=")
        );
    }

    #[test]
    fn refuses_missing_directories_and_large_files() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            attach(&mut args(&dir.path().join("nope")))
                .unwrap_err()
                .code,
            ErrorCode::InvalidArgument
        );
        assert_eq!(
            attach(&mut args(dir.path())).unwrap_err().code,
            ErrorCode::InvalidArgument
        );
        let big = dir.path().join("big.bin");
        std::fs::write(&big, vec![0u8; MAX_UPLOAD_BYTES as usize + 1]).unwrap();
        assert_eq!(
            attach(&mut args(&big)).unwrap_err().code,
            ErrorCode::TooLarge
        );
    }
}
