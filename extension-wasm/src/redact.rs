//! Credentials taken out of what agents are shown: URLs (user info, query and fragment
//! parameters), headers, and response bodies in any text format. Bodies are redacted as text,
//! not parsed: a JSON body cut short, behind a `)]}'` prefix, one object per line (NDJSON), in
//! a JSONP call or form-encoded is redacted the same way, and redaction always runs before a
//! body is cut for an answer.

pub const REDACTED: &str = "[redacted]";

/// Characters kept of one header value.
const MAX_HEADER_VALUE: usize = 300;

/// Parameter, header and field names that carry credentials (matched as substrings).
const SENSITIVE: &[&str] = &[
    "token",
    "key",
    "secret",
    "password",
    "passwd",
    "pwd",
    "auth",
    "sig",
    "session",
    "code",
    "credential",
    "cookie",
    "jwt",
    "otp",
    "sess",
    "ticket",
    "saml",
    "bearer",
    "nonce",
    "assertion",
    "private",
    "csrf",
    "xsrf",
    "pass",
];

/// Short names that carry credentials but are too common inside other words to match as
/// substrings (`sid`, not `inside`).
const SENSITIVE_EXACT: &[&str] = &["sid", "ssid", "sso", "pin"];

/// Does a parameter, header or field of this name carry a credential?
pub fn sensitive(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    SENSITIVE.iter().any(|s| name.contains(s)) || SENSITIVE_EXACT.contains(&name.as_str())
}

/// A URL as an answer shows it: credentials out ([`redact_url`]), typed secrets hidden, at
/// most `max` characters.
pub fn shown_url(url: &str, max: usize) -> String {
    crate::text::cap(&redact_url(url), max)
}

/// The URL with credentials in its user info, query and fragment parameters replaced.
pub fn redact_url(url: &str) -> String {
    let (before_fragment, fragment) = match url.split_once('#') {
        Some((b, f)) => (b, Some(f)),
        None => (url, None),
    };
    let (base, query) = match before_fragment.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (before_fragment, None),
    };
    let mut out = redact_user_info(base);
    if let Some(q) = query {
        out.push('?');
        out.push_str(&redact_params(q));
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(&redact_params(f));
    }
    out
}

fn redact_user_info(base: &str) -> String {
    let Some((scheme, rest)) = base.split_once("://") else {
        return base.to_owned();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rsplit_once('@') {
        Some((_, host)) => format!("{scheme}://{REDACTED}@{host}{}", &rest[authority_end..]),
        None => base.to_owned(),
    }
}

fn redact_params(params: &str) -> String {
    params
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, _)) if sensitive(name) => format!("{name}={REDACTED}"),
            _ => pair.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// A header's value as an agent may see it: credentials gone, URLs redacted, cut.
pub fn redact_header(name: &str, value: &str) -> String {
    if sensitive(name) {
        return REDACTED.to_owned();
    }
    // Referer, Location, Origin…: a URL carries its credentials in the header too.
    let value = match value.contains("://") {
        true => redact_url(value),
        false => value.to_owned(),
    };
    match value.char_indices().nth(MAX_HEADER_VALUE) {
        Some((cut, _)) => format!("{}…", &value[..cut]),
        None => value,
    }
}

/// A body with the values of credential-named fields replaced, whatever its format:
/// `"name": value` and `'name': value` (JSON, NDJSON, JSONP, a JSON cut short or behind a
/// prefix), `name: "value"` (script objects), `name=value` (forms, query strings in text) and
/// `name: value` lines (headers, YAML). Objects and arrays under such a name are redacted
/// field by field. A value cut short by the end of the text is redacted to the end.
pub fn redact_body(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    // Copied up to here; `i` is where scanning goes on.
    let mut copied = 0;
    let mut i = 0;
    while i < b.len() {
        let Some((key, after_key)) = key_at(b, i) else {
            i += 1;
            continue;
        };
        let quoted = b[i] == b'"' || b[i] == b'\'';
        let Some(span) = sensitive(&text[key.clone()])
            .then(|| value_after(b, after_key, quoted, line_start(b, i)))
            .flatten()
        else {
            // A quoted string that names no field is text: `name=value` pairs inside it (an
            // address in an attribute, a query in a message) are looked at too.
            i = match quoted && !is_field_name(b, after_key) {
                true => i + 1,
                false => after_key,
            };
            continue;
        };
        out.push_str(&text[copied..span.start]);
        out.push_str(match span.quote {
            Some(b'\'') => "'[redacted]'",
            Some(_) => "\"[redacted]\"",
            None => REDACTED,
        });
        copied = span.end;
        i = span.end;
    }
    out.push_str(&text[copied..]);
    out
}

/// Does a colon follow `j` (after blanks): is what ends there a field's name?
fn is_field_name(b: &[u8], j: usize) -> bool {
    b[j.min(b.len())..]
        .iter()
        .find(|c| !matches!(c, b' ' | b'\t'))
        .is_some_and(|&c| c == b':')
}

/// Bytes that make up a bare name (`access_token`, `x-api-key`, `user.password`).
fn name_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'$')
}

/// Is `i` the first non-blank byte of its line?
fn line_start(b: &[u8], i: usize) -> bool {
    b[..i]
        .iter()
        .rev()
        .take_while(|&&c| c != b'\n')
        .all(|&c| c == b' ' || c == b'\t')
}

/// A name starting at `i`: a quoted string (the name inside the quotes) or a bare name that
/// does not continue an earlier word; with where it ends.
fn key_at(b: &[u8], i: usize) -> Option<(std::ops::Range<usize>, usize)> {
    let c = b[i];
    if c == b'"' || c == b'\'' {
        let end = string_end(b, i)?;
        return Some((i + 1..end - 1, end));
    }
    if !name_byte(c) || (i > 0 && name_byte(b[i - 1])) {
        return None;
    }
    let end = i + b[i..].iter().take_while(|&&c| name_byte(c)).count();
    Some((i..end, end))
}

/// Where a quoted string that opens at `open` ends (one past its closing quote); None when
/// the text ends first.
fn string_end(b: &[u8], open: usize) -> Option<usize> {
    let quote = b[open];
    let mut j = open + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            c if c == quote => return Some(j + 1),
            b'\n' if quote == b'\'' => return None,
            _ => j += 1,
        }
    }
    None
}

/// Where a list that opens at `open` ends, if it holds no object; the end of the text when
/// it is cut short.
fn scalar_list_end(b: &[u8], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut j = open;
    while j < b.len() {
        match b[j] {
            b'{' => return None,
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            b'"' | b'\'' => {
                j = string_end(b, j).unwrap_or(b.len());
                continue;
            }
            _ => {}
        }
        j += 1;
    }
    Some(b.len())
}

/// A value to replace, and the quote it had.
struct Span {
    start: usize,
    end: usize,
    quote: Option<u8>,
}

/// The value that follows a sensitive name ending at `j`, if the name is a field's: after `:`
/// (a quoted name, a bare name with a quoted value, or a `name: value` line) or `=` (a bare
/// name). Objects and arrays are not one value: their fields are scanned in turn.
fn value_after(b: &[u8], j: usize, quoted_name: bool, at_line_start: bool) -> Option<Span> {
    let skip = |mut k: usize| {
        while k < b.len() && matches!(b[k], b' ' | b'\t') {
            k += 1;
        }
        k
    };
    if !quoted_name && b.get(j) == Some(&b'=') && b.get(j + 1) != Some(&b'=') {
        let start = j + 1;
        let len = b[start..]
            .iter()
            .take_while(|&&c| {
                !matches!(c, b'&' | b'"' | b'\'' | b'<' | b'>' | b'#') && !c.is_ascii_whitespace()
            })
            .count();
        return Some(Span {
            start,
            end: start + len,
            quote: None,
        });
    }
    let colon = skip(j);
    if b.get(colon) != Some(&b':') {
        return None;
    }
    let start = skip(colon + 1);
    match b.get(start) {
        Some(b'{') | None => None,
        // A list of scalars (`"tokens": ["…"]`) goes whole; a list of objects is scanned.
        Some(b'[') => scalar_list_end(b, start).map(|end| Span {
            start,
            end,
            quote: Some(b'"'),
        }),
        Some(&q @ (b'"' | b'\'')) => Some(Span {
            start,
            end: string_end(b, start).unwrap_or(b.len()),
            quote: Some(q),
        }),
        Some(_) if quoted_name => {
            let len = b[start..]
                .iter()
                .take_while(|&&c| !matches!(c, b',' | b'}' | b']') && !c.is_ascii_whitespace())
                .count();
            // A number or literal in JSON becomes a string there: the JSON stays JSON.
            Some(Span {
                start,
                end: start + len,
                quote: Some(b'"'),
            })
        }
        // `Authorization: Bearer x`: a line that names a credential, to its end.
        Some(_) if at_line_start && start > colon + 1 => {
            let len = b[start..]
                .iter()
                .take_while(|&&c| c != b'\n' && c != b'\r')
                .count();
            Some(Span {
                start,
                end: start + len,
                quote: None,
            })
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_headers_lose_their_credentials() {
        assert_eq!(
            redact_url(
                "https://u:p@api.x.com/a?q=cats&token=abc&API_KEY=1&page=2#access_token=z&x=1"
            ),
            "https://[redacted]@api.x.com/a?q=cats&token=[redacted]&API_KEY=[redacted]&page=2#access_token=[redacted]&x=1"
        );
        assert_eq!(
            redact_url("http://127.0.0.1/plain"),
            "http://127.0.0.1/plain"
        );
        assert_eq!(
            redact_url("http://h/p?flag&sig=1"),
            "http://h/p?flag&sig=[redacted]"
        );
        assert_eq!(
            redact_url(
                "https://h/p?sid=1&PHPSESSID=2&JSESSIONID=3&ticket=4&SAMLResponse=5&inside=6"
            ),
            "https://h/p?sid=[redacted]&PHPSESSID=[redacted]&JSESSIONID=[redacted]&ticket=[redacted]&SAMLResponse=[redacted]&inside=6"
        );
        assert_eq!(
            redact_url("https://h/p?csrf_token=1&passwd=2&pin=3&spinner=4"),
            "https://h/p?csrf_token=[redacted]&passwd=[redacted]&pin=[redacted]&spinner=4"
        );
        assert_eq!(redact_header("Authorization", "Bearer x"), REDACTED);
        assert_eq!(redact_header("Set-Cookie", "a=b"), REDACTED);
        assert_eq!(redact_header("Content-Type", "text/html"), "text/html");
        assert_eq!(
            redact_header("Referer", "https://app.example/cb?code=SECRET&x=1"),
            "https://app.example/cb?code=[redacted]&x=1"
        );
    }

    #[test]
    fn json_in_every_wrapping_loses_its_credentials() {
        let cases = [
            (
                r#"{"user":"ann","password":"hunter2","nested":{"apiToken":7}}"#,
                r#"{"user":"ann","password":"[redacted]","nested":{"apiToken":"[redacted]"}}"#,
            ),
            // Behind the anti-hijacking prefix.
            (
                ")]}'\n{\"access_token\": \"AT1\", \"ok\": true}",
                ")]}'\n{\"access_token\": \"[redacted]\", \"ok\": true}",
            ),
            // One object per line.
            (
                "{\"refresh_token\":\"RT1\"}\n{\"refresh_token\":\"RT2\",\"n\":2}\n",
                "{\"refresh_token\":\"[redacted]\"}\n{\"refresh_token\":\"[redacted]\",\"n\":2}\n",
            ),
            // JSONP, with a script-style object.
            (
                "cb({\"id_token\":\"IT\"}); other({session: 'S1', page: 2})",
                "cb({\"id_token\":\"[redacted]\"}); other({session: '[redacted]', page: 2})",
            ),
            // Cut inside the value: redacted to the end.
            (
                "{\"a\":1,\"access_token\":\"eyJhbGciOi",
                "{\"a\":1,\"access_token\":\"[redacted]\"",
            ),
            // An escaped quote does not end the value early.
            (
                r#"{"secret":"a\"b","x":"y"}"#,
                r#"{"secret":"[redacted]","x":"y"}"#,
            ),
            // A list of values under a sensitive name goes whole; objects' fields are judged one by one.
            (
                r#"{"tokens":["T1", "T2"],"auth":{"user":"ann","password":"P"},"keys":[{"id":1}]}"#,
                r#"{"tokens":"[redacted]","auth":{"user":"ann","password":"[redacted]"},"keys":[{"id":1}]}"#,
            ),
        ];
        for (body, want) in cases {
            assert_eq!(redact_body(body), want, "{body}");
        }
    }

    #[test]
    fn forms_and_header_lines_lose_their_credentials() {
        assert_eq!(
            redact_body("name=ann&session=abc&x=1"),
            "name=ann&session=[redacted]&x=1"
        );
        assert_eq!(
            redact_body("<a href=\"/cb?code=C1&state=s\">go</a>"),
            "<a href=\"/cb?code=[redacted]&state=s\">go</a>"
        );
        assert_eq!(
            redact_body("Host: x\nAuthorization: Bearer abc def\nAccept: */*"),
            "Host: x\nAuthorization: [redacted]\nAccept: */*"
        );
        // Plain text, comparisons and CSS are left alone.
        for kept in [
            "the token was valid",
            "if (key == 1) {}",
            ".monkey:hover { color: red }",
            "a secret: not a line start",
        ] {
            assert_eq!(redact_body(kept), kept);
        }
    }

    #[test]
    fn multibyte_text_is_kept_whole() {
        assert_eq!(
            redact_body("{\"naïve\":\"é\",\"pass\":\"ü€\"} ✓"),
            "{\"naïve\":\"é\",\"pass\":\"[redacted]\"} ✓"
        );
    }
}
