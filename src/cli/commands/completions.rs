//! `knights completions SHELL`: a completion script for the shell, generated from the same
//! definition as `--help`, so that it never names an option the command does not have.

use anyhow::Result;
use clap::{CommandFactory, ValueEnum};
use clap_complete::Shell;

use crate::cli::Cli;
use crate::cli::io::print;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Prints the script on standard output. To install it for your user (then start a new shell):

  bash  (with the bash-completion package):
    mkdir -p ~/.local/share/bash-completion/completions
    knights completions bash > ~/.local/share/bash-completion/completions/knights
  zsh   (a directory in $fpath; in ~/.zshrc, before `compinit`: fpath=(~/.zfunc $fpath)):
    mkdir -p ~/.zfunc
    knights completions zsh > ~/.zfunc/_knights
  fish:
    mkdir -p ~/.config/fish/completions
    knights completions fish > ~/.config/fish/completions/knights.fish

A packager installs the same scripts system-wide instead, e.g. bash's in
/usr/share/bash-completion/completions/knights, zsh's in /usr/share/zsh/site-functions/_knights,
fish's in /usr/share/fish/vendor_completions.d/knights.fish.")]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    shell: ShellArg,
}

/// The shells a script is written for.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ShellArg {
    Bash,
    Zsh,
    Fish,
}

impl From<ShellArg> for Shell {
    fn from(arg: ShellArg) -> Self {
        match arg {
            ShellArg::Bash => Shell::Bash,
            ShellArg::Zsh => Shell::Zsh,
            ShellArg::Fish => Shell::Fish,
        }
    }
}

pub fn run(args: Args) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(
        Shell::from(args.shell),
        &mut Cli::command(),
        "knights",
        &mut script,
    );
    print(&String::from_utf8_lossy(&script))
}
