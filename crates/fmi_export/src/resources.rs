//! Where the FMU's resources folder is: FMI 2 gives a URI, FMI 3 a native path.
#![forbid(unsafe_code)]

use std::path::PathBuf;

/// Resolves an FMI 2 `fmuResourceLocation` URI (`file:///abs`, `file:/abs`,
/// `file://localhost/abs`, percent-encoded) to a local path.
pub fn from_fmi2_uri(uri: &str) -> Result<PathBuf, String> {
    let rest = uri
        .strip_prefix("file:")
        .ok_or_else(|| format!("fmuResourceLocation \"{uri}\" is not a file: URI"))?;
    let path = if let Some(authority_and_path) = rest.strip_prefix("//") {
        // file://host/path: only an empty host or localhost names this machine.
        let slash = authority_and_path.find('/').unwrap_or(authority_and_path.len());
        let (host, path) = authority_and_path.split_at(slash);
        if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
            return Err(format!("fmuResourceLocation \"{uri}\" names another host \"{host}\""));
        }
        path
    } else {
        rest
    };
    if !path.starts_with('/') {
        return Err(format!("fmuResourceLocation \"{uri}\" is not an absolute path"));
    }
    Ok(PathBuf::from(percent_decode(path).map_err(|e| format!("fmuResourceLocation \"{uri}\": {e}"))?))
}

/// Resolves an FMI 3 `resourcePath` (a native absolute path, normally with a trailing separator).
pub fn from_fmi3_path(path: &str) -> PathBuf {
    PathBuf::from(path)
}

fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3).ok_or("truncated percent escape")?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| format!("bad percent escape %{hex}"))?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "percent escapes do not form UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_uri_form_resolves() {
        let expected = PathBuf::from("/tmp/my fmu/resources/");
        for uri in [
            "file:///tmp/my%20fmu/resources/",
            "file:/tmp/my%20fmu/resources/",
            "file://localhost/tmp/my%20fmu/resources/",
            "file:///tmp/my fmu/resources/",
        ] {
            assert_eq!(from_fmi2_uri(uri).unwrap(), expected, "{uri}");
        }
        assert!(from_fmi2_uri("http://example.com/r").is_err());
        assert!(from_fmi2_uri("file://otherhost/r").is_err());
        assert!(from_fmi2_uri("file:///bad%zz").is_err());
    }
}
