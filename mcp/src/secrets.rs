//! The user's secrets file (`--secrets FILE` or `CLAUDEZILLA_SECRETS_FILE`): values an agent
//! may have typed by name but never sees. Each line is dotenv-style, with the sites the value
//! may go to after it:
//!
//! ```text
//! # comments and blank lines are skipped; `export ` is allowed
//! GITHUB_PASSWORD=correct-horse @github.com
//! BANK_PIN="with spaces and \"quotes\"" @bank.example @login.bank.example
//! GITHUB_EMAIL=me@example.com @github.com:any-field
//! ANYWHERE='single quoted, typed into any https site'
//! ```
//!
//! A secret goes into password fields and the fields a login form marks (`autocomplete`
//! username, current-password, new-password, one-time-code); `@site:any-field` lets it into
//! any text field of that site.
//!
//! Written by hand: dotenv crates know no site bindings. Every answer passes [`Secrets::redact`]
//! before it leaves, and every argument [`Secrets::refuse_in`] before it is sent: both find
//! the value in every form pages and URLs write it ([`claudezilla_protocol::hiding`]).

use std::borrow::Cow;
use std::path::Path;

use claudezilla_protocol::args::{
    Entry, FieldEntry, FieldValue, FillFormArgs, FilledSecret, ResolvedForm, ResolvedType,
    SecretName, Site, TypeArgs, Typing,
};
use claudezilla_protocol::hiding::Hider;
use claudezilla_protocol::{ErrorBody, ErrorCode};

/// Shortest value accepted: shorter ones would blank common words out of every answer.
pub const MIN_VALUE_CHARS: usize = 4;
/// Values shorter than this can be guessed by an agent through the redaction itself (an answer
/// that repeats its guesses shows which one became `<secret:NAME>`): the server warns.
pub const GUESSABLE_CHARS: usize = 10;
/// Most entries a file may hold.
pub const MAX_ENTRIES: usize = 200;

/// A secrets file that cannot be used, and where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SecretsError {
    #[error("cannot read the secrets file {path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("secrets file, line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("the secrets file has more than {MAX_ENTRIES} entries")]
    TooMany,
}

/// The secrets the user named, and the forms each value is recognised in.
#[derive(Default)]
pub struct Secrets {
    /// The file they were read from, which is never uploaded.
    file: Option<std::path::PathBuf>,
    entries: Vec<FilledSecret>,
    /// Every written form of every value.
    hider: Hider,
}

impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| &e.name))
            .finish()
    }
}

impl Secrets {
    /// Reads the file the user named.
    pub fn load(path: &Path) -> Result<Self, SecretsError> {
        let text = std::fs::read_to_string(path).map_err(|e| SecretsError::Unreadable {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        let mut secrets = Self::parse(&text)?;
        secrets.file = Some(path.to_path_buf());
        Ok(secrets)
    }

    /// The secrets file, when one was read.
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The first secret whose value (in any written form) `bytes` hold, if any.
    pub fn found_in(&self, bytes: &[u8]) -> Option<&SecretName> {
        self.hider.first_in(&String::from_utf8_lossy(bytes))
    }

    /// Refuses arguments (as the agent wrote them) that carry a secret's value: a page that
    /// shows the value could talk the agent into sending it on, in a URL, typed text, a
    /// route's body or a script.
    pub fn refuse_in(&self, arguments: &str) -> Result<(), ErrorBody> {
        let Some(name) = self.hider.first_in(arguments) else {
            return Ok(());
        };
        Err(ErrorBody::new(
            ErrorCode::NotAllowed,
            format!("the arguments carry the value of secret {name}, which no tool sends on"),
        )
        .with_hint(format!(
            "to type it, name it: {{\"secret\": \"{name}\"}}; never write a secret's value out"
        )))
    }

    pub fn parse(text: &str) -> Result<Self, SecretsError> {
        let mut entries: Vec<FilledSecret> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let fail = |reason: String| SecretsError::Line {
                line: n + 1,
                reason,
            };
            let Some(entry) = parse_line(line).map_err(fail)? else {
                continue;
            };
            if entries.iter().any(|e| e.name == entry.name) {
                return Err(fail(format!("{} is named twice", entry.name)));
            }
            if entries.len() == MAX_ENTRIES {
                return Err(SecretsError::TooMany);
            }
            entries.push(entry);
        }
        let hider = Hider::new(entries.iter().map(|e| (&e.name, e.value.as_str())));
        Ok(Self {
            file: None,
            entries,
            hider,
        })
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The names of the secrets short enough to be guessed through the redaction.
    pub fn guessable(&self) -> impl Iterator<Item = &SecretName> {
        self.entries
            .iter()
            .filter(|e| e.value.chars().count() < GUESSABLE_CHARS)
            .map(|e| &e.name)
    }

    /// The names of the secrets that may be typed into any site.
    pub fn unbound(&self) -> impl Iterator<Item = &SecretName> {
        self.entries
            .iter()
            .filter(|e| e.sites.is_empty())
            .map(|e| &e.name)
    }

    /// The value and sites of the secret the agent named (only this file says what a secret
    /// is and where it goes).
    pub fn fill(&self, name: &SecretName) -> Result<FilledSecret, ErrorBody> {
        self.entries
            .iter()
            .find(|e| e.name == *name)
            .cloned()
            .ok_or_else(|| self.unknown(name))
    }

    /// What is typed for an entry as the agent wrote it.
    fn typing(&self, entry: Entry) -> Result<Typing, ErrorBody> {
        Ok(match entry {
            Entry::Text(text) => Typing::Text(text),
            Entry::Secret(name) => Typing::Secret(self.fill(&name)?),
        })
    }

    fn unknown(&self, name: &SecretName) -> ErrorBody {
        if self.entries.is_empty() {
            return ErrorBody::new(
                ErrorCode::InvalidArgument,
                format!("no secret {name}: no secrets file was given"),
            )
            .with_hint(
                "the user starts claudezilla-mcp with --secrets FILE (or CLAUDEZILLA_SECRETS_FILE)",
            );
        }
        let names: Vec<&str> = self.entries.iter().map(|e| e.name.as_str()).collect();
        ErrorBody::new(
            ErrorCode::InvalidArgument,
            format!("no secret {name}; the secrets are {}", names.join(", ")),
        )
    }

    /// `text` with every form of every value replaced by `<redacted:NAME>`.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        self.hider.hide(text, SecretName::redacted)
    }
}

/// One line: nothing (blank or a comment) or an entry.
fn parse_line(line: &str) -> Result<Option<FilledSecret>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let line = line.strip_prefix("export ").unwrap_or(line).trim_start();
    let (name, rest) = line
        .split_once('=')
        .ok_or("write NAME=value, then the sites it may be typed into (@example.com)")?;
    let name = SecretName::try_from(name.trim().to_owned())?;
    let (value, rest) = value(rest.trim_start())?;
    if value.chars().filter(|c| !c.is_whitespace()).count() < MIN_VALUE_CHARS {
        return Err(format!(
            "{name}'s value is shorter than {MIN_VALUE_CHARS} characters, too short to hide in answers"
        ));
    }
    let mut sites = Vec::new();
    for (n, word) in rest.split_whitespace().enumerate() {
        if word.starts_with('#') {
            break;
        }
        // The word is not repeated: an unquoted value with a space would show its second part.
        sites.push(site(word).map_err(|why| {
            format!(
                "word {} after {name}'s value: {why}; a value with spaces goes in quotes",
                n + 1
            )
        })?);
    }
    Ok(Some(FilledSecret { name, value, sites }))
}

/// The value and what follows it: double-quoted (with `\"`, `\\` and `\n`), single-quoted
/// (as written) or bare (up to the first space).
fn value(rest: &str) -> Result<(String, &str), String> {
    let mut chars = rest.char_indices();
    match chars.next() {
        Some((_, '"')) => {
            let mut value = String::new();
            while let Some((i, c)) = chars.next() {
                match c {
                    '"' => return Ok((value, &rest[i + 1..])),
                    '\\' => match chars.next() {
                        Some((_, 'n')) => value.push('\n'),
                        Some((_, c)) => value.push(c),
                        None => break,
                    },
                    c => value.push(c),
                }
            }
            Err("a double-quoted value has no closing \"".into())
        }
        Some((_, '\'')) => {
            let body = &rest[1..];
            let end = body
                .find('\'')
                .ok_or("a single-quoted value has no closing '")?;
            Ok((body[..end].to_owned(), &body[end + 1..]))
        }
        _ => {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            Ok((rest[..end].to_owned(), &rest[end..]))
        }
    }
}

/// A site as `@host` writes it (`@host:any-field`: into any text field there).
fn site(word: &str) -> Result<Site, String> {
    let host = word
        .strip_prefix('@')
        .ok_or("sites are written @example.com, after the value")?;
    Site::try_from(host.to_owned())
}

/// A `firefox_type` as it leaves: its secret, if it names one, filled in.
pub fn resolve_type(secrets: &Secrets, args: TypeArgs) -> Result<ResolvedType, ErrorBody> {
    Ok(ResolvedType {
        target: args.target,
        text: secrets.typing(args.entry)?,
        clear: args.clear,
        tab_id: args.tab_id,
    })
}

/// A `firefox_fill_form` as it leaves: the secrets of its fields filled in.
pub fn resolve_form(secrets: &Secrets, args: FillFormArgs) -> Result<ResolvedForm, ErrorBody> {
    let fields = args
        .fields
        .into_iter()
        .map(|f| {
            let entry = match f.value {
                FieldValue::Checked(checked) => FieldEntry::Checked(checked),
                FieldValue::Text(text) => FieldEntry::Typed(Typing::Text(text)),
                FieldValue::Secret { secret } => {
                    FieldEntry::Typed(Typing::Secret(secrets.fill(&secret)?))
                }
            };
            Ok((f.target, entry))
        })
        .collect::<Result<_, ErrorBody>>()?;
    Ok(ResolvedForm {
        fields,
        tab_id: args.tab_id,
    })
}

#[cfg(test)]
mod tests;
