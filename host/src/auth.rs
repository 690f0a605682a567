//! The socket token: 32 random bytes, hex, compared in constant time.

use subtle::ConstantTimeEq;

/// The secret a socket client must present first.
pub struct Token(String);

impl Token {
    /// A fresh token from the OS's random source.
    pub fn generate() -> std::io::Result<Self> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(std::io::Error::other)?;
        Ok(Self(bytes.iter().map(|b| format!("{b:02x}")).collect()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Constant-time in the token's content; the length (always 64) is not secret.
    pub fn matches(&self, presented: &str) -> bool {
        self.0.as_bytes().ct_eq(presented.as_bytes()).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_64_hex_and_fresh() {
        let a = Token::generate().unwrap();
        let b = Token::generate().unwrap();
        assert_eq!(a.as_str().len(), 64);
        assert!(a.as_str().bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a.as_str(), b.as_str());
    }

    #[test]
    fn only_the_exact_token_matches() {
        let t = Token::generate().unwrap();
        assert!(t.matches(t.as_str()));
        assert!(!t.matches(""));
        assert!(!t.matches(&t.as_str()[..63]));
        assert!(!t.matches(&format!("{}0", t.as_str())));
        assert!(!t.matches(&t.as_str().to_uppercase()));
    }
}
