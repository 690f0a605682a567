//! Keys as a real keystroke has them: `key`, `code`, the legacy `keyCode`/`which` that
//! jQuery-era pages still test (`e.which === 13`), and the `charCode` of the `keypress` event.
//! A chord such as `Control+a`, `Shift+Tab` or `Meta+Enter` is parsed here, at the edge, so a
//! key the tools cannot press is refused before it travels.

use serde::{Deserialize, Serialize};

/// A modifier key, by the name pages and agents give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Modifier {
    Control,
    Shift,
    Alt,
    Meta,
}

impl Modifier {
    /// In the order real keystrokes press them.
    pub const ALL: [Self; 4] = [Self::Control, Self::Shift, Self::Alt, Self::Meta];

    /// The key's name (`KeyboardEvent.key`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Control => "Control",
            Self::Shift => "Shift",
            Self::Alt => "Alt",
            Self::Meta => "Meta",
        }
    }

    /// The modifier a name means, whatever its case.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name))
    }

    /// The key itself, pressed before the chord's key and released after it.
    pub fn key(self) -> Key {
        key(self.name()).map_or_else(|| unreachable!("modifiers are named keys"), |(k, _)| k)
    }
}

/// The modifier keys held during a press: the one representation every hop uses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Modifiers {
    pub ctrl: bool,
    pub shift: bool,
    pub alt: bool,
    pub meta: bool,
}

impl Modifiers {
    fn slot(&mut self, m: Modifier) -> &mut bool {
        match m {
            Modifier::Control => &mut self.ctrl,
            Modifier::Shift => &mut self.shift,
            Modifier::Alt => &mut self.alt,
            Modifier::Meta => &mut self.meta,
        }
    }

    pub fn set(&mut self, m: Modifier, held: bool) {
        *self.slot(m) = held;
    }

    pub fn holds(mut self, m: Modifier) -> bool {
        *self.slot(m)
    }

    /// The modifiers held, in the order keystrokes press them.
    pub fn held(self) -> impl Iterator<Item = Modifier> {
        Modifier::ALL.into_iter().filter(move |m| self.holds(*m))
    }
}

impl FromIterator<Modifier> for Modifiers {
    fn from_iter<I: IntoIterator<Item = Modifier>>(keys: I) -> Self {
        let mut held = Self::default();
        keys.into_iter().for_each(|m| held.set(m, true));
        held
    }
}

/// One key of a US keyboard layout, as the browser describes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Key {
    /// `KeyboardEvent.key`: "Enter", "a", "A", "!".
    pub key: String,
    /// `KeyboardEvent.code`: the physical key, "Enter", "KeyA", "Digit1".
    pub code: String,
    /// `keyCode` (and `which`) of keydown/keyup: 13 for Enter, 65 for a and A.
    pub key_code: u32,
    /// `charCode` (and `which`) of keypress; 0 for keys that type nothing (no keypress then,
    /// but for Enter).
    pub char_code: u32,
}

impl Key {
    /// A key that types a character (and so gets a `keypress`).
    pub fn types(&self) -> bool {
        self.char_code != 0
    }
}

/// A key pressed with modifiers held.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Chord {
    pub key: Key,
    pub modifiers: Modifiers,
}

/// Named keys: (name, code, keyCode).
const NAMED: &[(&str, &str, u32)] = &[
    ("Enter", "Enter", 13),
    ("Tab", "Tab", 9),
    ("Escape", "Escape", 27),
    ("Backspace", "Backspace", 8),
    ("Delete", "Delete", 46),
    ("Insert", "Insert", 45),
    ("ArrowUp", "ArrowUp", 38),
    ("ArrowDown", "ArrowDown", 40),
    ("ArrowLeft", "ArrowLeft", 37),
    ("ArrowRight", "ArrowRight", 39),
    ("Home", "Home", 36),
    ("End", "End", 35),
    ("PageUp", "PageUp", 33),
    ("PageDown", "PageDown", 34),
    ("Shift", "ShiftLeft", 16),
    ("Control", "ControlLeft", 17),
    ("Alt", "AltLeft", 18),
    ("Meta", "MetaLeft", 91),
    ("CapsLock", "CapsLock", 20),
    ("ContextMenu", "ContextMenu", 93),
];

/// Other names people write for named keys.
const ALIASES: &[(&str, &str)] = &[
    ("Return", "Enter"),
    ("Esc", "Escape"),
    ("Del", "Delete"),
    ("Up", "ArrowUp"),
    ("Down", "ArrowDown"),
    ("Left", "ArrowLeft"),
    ("Right", "ArrowRight"),
    ("Ctrl", "Control"),
    ("Cmd", "Meta"),
    ("Command", "Meta"),
    ("Super", "Meta"),
    ("Win", "Meta"),
    ("Option", "Alt"),
];

/// Punctuation of a US layout: (unshifted, shifted, code, keyCode).
const PUNCTUATION: &[(char, char, &str, u32)] = &[
    (';', ':', "Semicolon", 186),
    ('=', '+', "Equal", 187),
    (',', '<', "Comma", 188),
    ('-', '_', "Minus", 189),
    ('.', '>', "Period", 190),
    ('/', '?', "Slash", 191),
    ('`', '~', "Backquote", 192),
    ('[', '{', "BracketLeft", 219),
    ('\\', '|', "Backslash", 220),
    (']', '}', "BracketRight", 221),
    ('\'', '"', "Quote", 222),
];

/// The shifted digits of a US layout, from 0 to 9.
const SHIFTED_DIGITS: [char; 10] = [')', '!', '@', '#', '$', '%', '^', '&', '*', '('];

/// The key a name or a single character stands for, and whether typing it needs Shift.
pub fn key(name: &str) -> Option<(Key, bool)> {
    let name = ALIASES
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
        .map_or(name, |(_, real)| real);
    if let Some((key, code, key_code)) = NAMED
        .iter()
        .find(|(key, _, _)| key.eq_ignore_ascii_case(name))
    {
        let char_code = if *key == "Enter" { 13 } else { 0 };
        return Some((named(key, code, *key_code, char_code), false));
    }
    if name.eq_ignore_ascii_case("Space") {
        return Some((named(" ", "Space", 32, 32), false));
    }
    if let Some(n) = name
        .strip_prefix(['F', 'f'])
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| (1..=12).contains(n))
    {
        return Some((named(&format!("F{n}"), &format!("F{n}"), 111 + n, 0), false));
    }
    single(name).map(character)
}

fn named(key: &str, code: &str, key_code: u32, char_code: u32) -> Key {
    Key {
        key: key.to_owned(),
        code: code.to_owned(),
        key_code,
        char_code,
    }
}

/// A single character: its key on a US layout (or none, for characters it lacks).
fn character(c: char) -> (Key, bool) {
    let typed = |code: &str, key_code: u32| Key {
        key: c.to_string(),
        code: code.to_owned(),
        key_code,
        char_code: u32::from(c),
    };
    if c == ' ' {
        return (typed("Space", 32), false);
    }
    if c.is_ascii_alphabetic() {
        let upper = c.to_ascii_uppercase();
        return (
            typed(&format!("Key{upper}"), u32::from(upper)),
            c.is_ascii_uppercase(),
        );
    }
    if let Some(d) = c.to_digit(10) {
        return (typed(&format!("Digit{d}"), 48 + d), false);
    }
    if let Some(d) = SHIFTED_DIGITS.iter().position(|s| *s == c) {
        return (typed(&format!("Digit{d}"), 48 + d as u32), true);
    }
    if let Some((plain, _, code, key_code)) = PUNCTUATION
        .iter()
        .find(|(plain, shifted, _, _)| *plain == c || *shifted == c)
    {
        return (typed(code, *key_code), *plain != c);
    }
    // Not on the layout (é, 日): the character alone, as an input method would give it.
    (typed("", 0), false)
}

/// Parses `Enter`, `a`, `Control+a`, `Shift+Tab`, `Meta+Enter`, `Ctrl+Shift+ArrowLeft`, `+`.
pub fn parse(text: &str) -> Result<Chord, String> {
    let hint = "give a key such as Enter, Tab, Escape, ArrowDown, a, F5, Space, or a chord such as Control+a, Shift+Tab, Meta+Enter";
    if text.is_empty() || text.chars().count() > 64 {
        return Err(hint.into());
    }
    // "+" alone, or ending a chord ("Control++"), is the plus key.
    let (mods, last) = match text.strip_suffix("++") {
        Some(rest) => (rest, "+"),
        None if text == "+" => ("", "+"),
        None => text.rsplit_once('+').unwrap_or(("", text)),
    };
    let mut modifiers = Modifiers::default();
    for part in mods.split('+').filter(|p| !p.is_empty()) {
        let name = ALIASES
            .iter()
            .find(|(alias, _)| alias.eq_ignore_ascii_case(part))
            .map_or(part, |(_, real)| real);
        let Some(held) = Modifier::from_name(name) else {
            return Err(format!(
                "{part:?} is not a modifier (Control, Shift, Alt, Meta); {hint}"
            ));
        };
        modifiers.set(held, true);
    }
    let (key, needs_shift) = key(last).ok_or_else(|| format!("unknown key {last:?}; {hint}"))?;
    modifiers.shift |= needs_shift;
    Ok(Chord { key, modifiers }.shifted())
}

impl Chord {
    /// Shift held over a character gives its shifted character, as on a keyboard: "Shift+a"
    /// is "A", "Shift+1" is "!" (however Shift came to be held: the chord or a flag).
    pub fn shifted(self) -> Self {
        let Some(up) = self
            .modifiers
            .shift
            .then(|| single(&self.key.key).and_then(shifted))
            .flatten()
        else {
            return self;
        };
        Self {
            key: character(up).0,
            ..self
        }
    }
}

fn single(text: &str) -> Option<char> {
    let mut chars = text.chars();
    chars.next().filter(|_| chars.next().is_none())
}

/// What a character's key gives with Shift on a US layout (none: Shift changes nothing).
fn shifted(c: char) -> Option<char> {
    if c.is_ascii_lowercase() {
        return Some(c.to_ascii_uppercase());
    }
    if let Some(d) = c.to_digit(10) {
        return Some(SHIFTED_DIGITS[d as usize]);
    }
    PUNCTUATION
        .iter()
        .find(|(plain, _, _, _)| *plain == c)
        .map(|(_, shifted, _, _)| *shifted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_their_legacy_codes() {
        let enter = parse("Enter").unwrap();
        assert_eq!((enter.key.key_code, enter.key.char_code), (13, 13));
        assert_eq!(enter.key.code, "Enter");
        let a = parse("a").unwrap().key;
        assert_eq!(
            (a.key.as_str(), a.code.as_str(), a.key_code, a.char_code),
            ("a", "KeyA", 65, 97)
        );
        let big = parse("A").unwrap();
        assert_eq!(
            (big.key.key_code, big.key.char_code, big.modifiers.shift),
            (65, 65, true)
        );
        let bang = parse("!").unwrap();
        assert_eq!(
            (
                bang.key.code.as_str(),
                bang.key.key_code,
                bang.modifiers.shift
            ),
            ("Digit1", 49, true)
        );
        assert_eq!(parse("Escape").unwrap().key.key_code, 27);
        assert_eq!(parse("esc").unwrap().key.key, "Escape");
        assert_eq!(parse("F5").unwrap().key.key_code, 116);
        assert_eq!(parse("Space").unwrap().key.key, " ");
        assert!(!parse("ArrowDown").unwrap().key.types());
        let e = parse("é").unwrap().key;
        assert_eq!((e.key_code, e.char_code), (0, 233));
    }

    #[test]
    fn chords() {
        let c = parse("Control+a").unwrap();
        assert!(c.modifiers.ctrl && !c.modifiers.shift);
        assert_eq!(c.key.key, "a");
        // Shift over a character gives the shifted one, as a keyboard does.
        for (written, key, code) in [
            ("Shift+a", "A", "KeyA"),
            ("shift+1", "!", "Digit1"),
            ("Control+Shift+/", "?", "Slash"),
            ("Shift+A", "A", "KeyA"),
            ("Shift+!", "!", "Digit1"),
        ] {
            let chord = parse(written).unwrap();
            assert_eq!(
                (chord.key.key.as_str(), chord.key.code.as_str()),
                (key, code)
            );
            assert!(chord.modifiers.shift, "{written}");
        }
        assert_eq!(parse("Shift+Space").unwrap().key.key, " ");
        assert_eq!(parse("Shift+é").unwrap().key.key, "é");
        let st = parse("Shift+Tab").unwrap();
        assert!(st.modifiers.shift && st.key.key == "Tab");
        let me = parse("Meta+Enter").unwrap();
        assert!(me.modifiers.meta && me.key.key_code == 13);
        let all = parse("Ctrl+Alt+Shift+Cmd+ArrowLeft").unwrap();
        assert!(
            all.modifiers.ctrl && all.modifiers.alt && all.modifiers.shift && all.modifiers.meta
        );
        assert_eq!(parse("+").unwrap().key.code, "Equal");
        assert!(parse("Control++").unwrap().modifiers.ctrl);
    }

    #[test]
    fn unknown_keys_say_what_works() {
        for bad in ["", "Enterr", "Hyper+a", "Control+", "ab", &"x".repeat(70)] {
            let err = parse(bad).unwrap_err();
            assert!(err.contains("Control+a"), "{bad:?}: {err}");
        }
    }
}
