//! The command line: flags and subcommands, with help text in the doc comments.

use std::path::PathBuf;

use clap::{Args, Parser};

use crate::scheme::{FilterSpec, Scheme, SpecError};

/// A Bloom filter you can run, one command at a time, with a tutor that explains every answer.
///
/// With no FILE and a terminal on both ends, starts an interactive session; otherwise reads
/// commands (ADD key, CHECK key, BITS, ...) from the files, or from stdin, and prints the answers.
#[derive(Debug, Parser)]
#[command(name = "bloom-tutor", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Script files to run, in order, against one filter (`-` reads stdin)
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,

    #[command(flatten)]
    pub filter: FilterArgs,

    /// Explain every ADD and CHECK in commentary lines that start with `#`
    #[arg(long)]
    pub explain: bool,

    /// Neither read nor write the interactive session's history file
    #[arg(long)]
    pub no_history: bool,
}

/// The filter's shape: scheme, bits and hashes.
#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Hash scheme: bytesum (the main lesson), djb2-fnv (the intro) or murmur3 (the article)
    #[arg(long, value_name = "NAME", value_parser = parse_scheme)]
    pub scheme: Option<Scheme>,

    /// Number of bits, m (default: the scheme's own: 64, 16 or 100)
    #[arg(short = 'm', long = "bits", value_name = "M")]
    pub bits: Option<u64>,

    /// Number of hashes, k (default: the scheme's own: 2, 3 or 10)
    #[arg(short = 'k', long = "hashes", value_name = "K")]
    pub hashes: Option<u32>,
}

impl FilterArgs {
    /// Whether any of the flags was given, so that a script's `# filter:` line must yield.
    pub fn any_given(&self) -> bool {
        self.scheme.is_some() || self.bits.is_some() || self.hashes.is_some()
    }

    /// The spec these flags describe, with the scheme's own defaults filled in.
    pub fn spec(&self) -> Result<FilterSpec, SpecError> {
        FilterSpec::new(
            self.scheme.unwrap_or(Scheme::ByteSum),
            self.bits,
            self.hashes,
        )
    }
}

fn parse_scheme(name: &str) -> Result<Scheme, String> {
    Scheme::from_name(name)
        .ok_or_else(|| format!("unknown scheme `{name}`, expected bytesum, djb2-fnv or murmur3"))
}
