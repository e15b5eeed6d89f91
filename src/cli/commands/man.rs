//! `knights man`: the manual page in roff, generated from the same definition as `--help`:
//! the command, its global options, then a section for every command with its own options.

use anyhow::{Context, Result};
use clap::{Arg, CommandFactory};
use clap_mangen::Man;

use crate::cli::Cli;
use crate::cli::io::print;

#[derive(Debug, clap::Args)]
#[command(after_help = "\
Prints the page (roff) on standard output. To read it at once, or install it for your user:

  knights man > knights.1 && man ./knights.1
  mkdir -p ~/.local/share/man/man1
  knights man > ~/.local/share/man/man1/knights.1     then: man knights

(man-db searches ~/.local/share/man when ~/.local/bin is on $PATH; elsewhere add it to
$MANPATH.) A packager installs it as /usr/share/man/man1/knights.1.")]
pub struct Args {}

pub fn run(_args: Args) -> Result<()> {
    print(&page()?)
}

/// The whole page: clap_mangen's for the top command (without its list of `knights-count(1)`
/// pages, which do not exist), then one section per command.
fn page() -> Result<String> {
    // No `help` command: the page is the help.
    let mut cli = Cli::command()
        .disable_help_subcommand(true)
        .mut_args(for_the_page);
    cli.build();
    let man = Man::new(cli.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    for command in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        render_command(command, &mut out)?;
    }
    out.extend(notes(&man, ".SH EXAMPLES")?.bytes());
    man.render_version_section(&mut out)?;
    let page = String::from_utf8(out).context("the manual page is not UTF-8")?;
    Ok(without_repeated_preamble(&page))
}

/// A command's section, `KNIGHTS COUNT`, with its synopsis, description, options and notes as
/// subsections; then those of its own commands (`shards plan`, ...).
fn render_command(command: &clap::Command, out: &mut Vec<u8>) -> Result<()> {
    let name = command
        .get_bin_name()
        .unwrap_or_else(|| command.get_name())
        .to_uppercase();
    // The global options are described once, at the top; and every command has -h.
    let command = command
        .clone()
        .mut_args(|arg| {
            if arg.is_global_set() || arg.get_id() == "help" {
                arg.hide(true)
            } else {
                for_the_page(arg)
            }
        })
        .disable_help_subcommand(true);
    let man = Man::new(command.clone());
    let mut body = Vec::new();
    man.render_synopsis_section(&mut body)?;
    man.render_description_section(&mut body)?;
    if command.get_arguments().any(|arg| !arg.is_hide_set()) {
        man.render_options_section(&mut body)?;
    }
    out.extend_from_slice(format!(".SH \"{name}\"\n").as_bytes());
    // clap_mangen writes each part as a section (.SH); under the command's section they are
    // its subsections (.SS).
    let body = String::from_utf8(body).context("the manual page is not UTF-8")?;
    for line in body.lines() {
        match line.strip_prefix(".SH ") {
            Some(title) => out.extend_from_slice(format!(".SS {title}\n").as_bytes()),
            None => out.extend_from_slice(format!("{line}\n").as_bytes()),
        }
    }
    if command.get_after_help().is_some() || command.get_after_long_help().is_some() {
        out.extend(notes(&man, ".SS NOTES")?.bytes());
    }
    for sub in command.get_subcommands().filter(|c| !c.is_hide_set()) {
        render_command(sub, out)?;
    }
    Ok(())
}

/// An option as the page shows it. clap_mangen takes the text of an option kept out of `-h`
/// from its long help only, so one with a single paragraph would have none: it is given its
/// text as long help. The memory's default is this machine's, not the reader's: the text says
/// how it is chosen.
fn for_the_page(arg: Arg) -> Arg {
    let arg = match arg.get_help().cloned() {
        Some(help) if arg.is_hide_short_help_set() && arg.get_long_help().is_none() => {
            arg.long_help(help)
        }
        _ => arg,
    };
    if arg.get_id() == "memory" {
        arg.hide_default_value(true)
    } else {
        arg
    }
}

/// The text after a command's help (its notes and examples) under the heading `title`, its
/// indented lines (examples, lists) kept as they are written: filled, as the other lines are,
/// they would run into each other.
fn notes(man: &Man, title: &str) -> Result<String> {
    let mut roff = Vec::new();
    man.render_extra_section(&mut roff)?;
    let roff = String::from_utf8(roff).context("the manual page is not UTF-8")?;
    let mut out = String::with_capacity(roff.len());
    let mut verbatim = false;
    for line in roff.lines() {
        if line == ".SH EXTRA" {
            out.push_str(title);
            out.push('\n');
            continue;
        }
        let indented = line.starts_with(' ');
        if indented != verbatim {
            out.push_str(if indented { ".nf\n" } else { ".fi\n" });
            verbatim = indented;
        }
        out.push_str(line);
        out.push('\n');
    }
    if verbatim {
        out.push_str(".fi\n");
    }
    Ok(out)
}

/// The page with clap_mangen's preamble (the definition of the apostrophe string, which it
/// writes before every part) only once, at the top.
fn without_repeated_preamble(page: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::with_capacity(page.len());
    for line in page.lines() {
        let preamble = line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
        if preamble && !seen.insert(line) {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
