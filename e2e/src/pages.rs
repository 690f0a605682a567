//! A tiny HTTP server on 127.0.0.1 for the pages the tests own.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// One page: body, content type and an optional delay before answering.
#[derive(Clone)]
pub struct Page {
    pub body: Vec<u8>,
    pub content_type: &'static str,
    /// Served as `Content-Disposition: attachment` under this name (a download).
    pub attachment: Option<&'static str>,
    pub delay: Duration,
    /// Sent after its head by this long: a download stays in progress meanwhile.
    pub body_delay: Duration,
    /// A 302 to this path on the same server named `localhost` (another host for allowlists).
    pub redirect_to_localhost: Option<&'static str>,
}

impl Page {
    pub fn html(body: impl Into<String>) -> Self {
        Self {
            body: body.into().into_bytes(),
            content_type: "text/html; charset=utf-8",
            attachment: None,
            delay: Duration::ZERO,
            body_delay: Duration::ZERO,
            redirect_to_localhost: None,
        }
    }

    pub fn svg(body: impl Into<String>) -> Self {
        Self {
            body: body.into().into_bytes(),
            content_type: "image/svg+xml",
            attachment: None,
            delay: Duration::ZERO,
            body_delay: Duration::ZERO,
            redirect_to_localhost: None,
        }
    }

    pub fn js(body: impl Into<String>) -> Self {
        Self {
            body: body.into().into_bytes(),
            content_type: "text/javascript",
            attachment: None,
            delay: Duration::ZERO,
            body_delay: Duration::ZERO,
            redirect_to_localhost: None,
        }
    }

    pub fn css(body: impl Into<String>) -> Self {
        Self {
            content_type: "text/css",
            ..Self::html(body)
        }
    }

    /// A file the browser downloads (not shows) as `name`.
    pub fn download(bytes: Vec<u8>, name: &'static str) -> Self {
        Self {
            body: bytes,
            content_type: "application/octet-stream",
            attachment: Some(name),
            ..Self::html("")
        }
    }

    pub fn redirect_to_localhost(path: &'static str) -> Self {
        Self {
            redirect_to_localhost: Some(path),
            ..Self::html("")
        }
    }

    pub fn delayed(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

pub struct PageServer {
    pub port: u16,
    ip: std::net::Ipv4Addr,
    task: tokio::task::JoinHandle<()>,
}

/// Where files under `/w/` come from: the widgets `cargo xtask test` installs from npm.
pub const FILES_PREFIX: &str = "/w/";

/// A file of the widgets folder for `path` (under [`FILES_PREFIX`]), never outside it.
fn widget_file(path: &str) -> Option<Page> {
    let rel = path.strip_prefix(FILES_PREFIX)?;
    if rel
        .split('/')
        .any(|part| part.is_empty() || part == "." || part == "..")
    {
        return None;
    }
    let file = crate::widgets_dir().join(rel);
    let body = std::fs::read(&file).ok()?;
    let content_type = match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "html" => "text/html; charset=utf-8",
        _ => "application/octet-stream",
    };
    Some(Page {
        body,
        content_type,
        ..Page::html("")
    })
}

impl PageServer {
    /// Serves `pages` (path → page) until dropped; anything else is a 404.
    pub async fn start(pages: HashMap<&'static str, Page>) -> anyhow::Result<Self> {
        Self::start_on([127, 0, 0, 1], pages).await
    }

    /// [`start`](Self::start) on another loopback address: a site of its own, which no other
    /// test's pages share.
    pub async fn start_on(ip: [u8; 4], pages: HashMap<&'static str, Page>) -> anyhow::Result<Self> {
        let listener = TcpListener::bind((std::net::Ipv4Addr::from(ip), 0)).await?;
        let port = listener.local_addr()?.port();
        let pages = Arc::new(pages);
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let pages = pages.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 8192];
                    let Ok(n) = stream.read(&mut buf).await else {
                        return;
                    };
                    let head = String::from_utf8_lossy(&buf[..n]);
                    let path = head.split_whitespace().nth(1).unwrap_or("/");
                    let path = path.split('?').next().unwrap_or(path);
                    let found = pages.get(path).cloned().or_else(|| widget_file(path));
                    let (status, page) = match found {
                        Some(p) => ("200 OK", p),
                        None => ("404 Not Found", Page::html("not found")),
                    };
                    tokio::time::sleep(page.delay).await;
                    if let Some(to) = page.redirect_to_localhost {
                        let response = format!(
                            "HTTP/1.1 302 Found\r\nLocation: http://localhost:{port}{to}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                        );
                        let _ = stream.write_all(response.as_bytes()).await;
                        let _ = stream.shutdown().await;
                        return;
                    }
                    let disposition = page
                        .attachment
                        .map(|name| {
                            format!("Content-Disposition: attachment; filename=\"{name}\"\r\n")
                        })
                        .unwrap_or_default();
                    let head = format!(
                        "HTTP/1.1 {status}\r\nContent-Type: {}\r\n{disposition}Content-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n",
                        page.content_type,
                        page.body.len(),
                    );
                    let _ = stream.write_all(head.as_bytes()).await;
                    tokio::time::sleep(page.body_delay).await;
                    let _ = stream.write_all(&page.body).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Ok(Self {
            port,
            ip: ip.into(),
            task,
        })
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}:{}{path}", self.ip, self.port)
    }
}

impl Drop for PageServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// A page of about `elements` elements: sections of a heading, a paragraph with a link, a
/// labelled input and a button (the "large page" of the benchmarks).
pub fn large_page(elements: usize) -> String {
    let mut body =
        String::from("<!doctype html><html><head><title>Large page</title></head><body><main>");
    for i in 0..elements / 7 {
        body.push_str(&format!(
            "<section id=s{i}><h2>Section {i}</h2><p>Paragraph {i} with <a href=#s{i}>link {i}</a>.</p>\
             <label>Field {i} <input name=f{i}></label><button type=button>Button {i}</button></section>"
        ));
    }
    body.push_str("</main></body></html>");
    body
}

/// A table of `rows` rows, each a link, a button and some text (the benchmark's long table).
pub fn table_page(rows: usize) -> String {
    let mut body = String::from(
        "<!doctype html><html><head><title>Table page</title></head><body><table><tbody>",
    );
    for i in 0..rows {
        body.push_str(&format!(
            "<tr><td><a href=#r{i}>Item {i}</a></td><td><button type=button>Delete</button></td>\
             <td>Note about item {i}</td></tr>"
        ));
    }
    body.push_str("</tbody></table></body></html>");
    body
}
