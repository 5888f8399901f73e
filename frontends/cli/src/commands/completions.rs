//! `smith completions SHELL`: a shell completion script generated from the same declarations
//! as `--help` (clap_complete). Checked-in copies for packagers live in `dist/completions/`,
//! kept equal to the declarations by the drift gate.

use clap::Args;
use clap_complete::Shell;

use crate::command_error::CliError;
use crate::output::write_stdout;

pub(crate) const COMPLETIONS_AFTER_HELP: &str = "\
Install the script where your shell loads completions, for example:
  bash        smith completions bash > ~/.local/share/bash-completion/completions/smith
  zsh         smith completions zsh > ~/.zfunc/_smith   (with fpath+=~/.zfunc before compinit)
  fish        smith completions fish > ~/.config/fish/completions/smith.fish
  powershell  smith completions powershell >> $PROFILE
The same scripts are in the source tree under dist/completions/. `smith docs man` prints the
manual pages.";

/// Arguments of `smith completions`.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_name = "SHELL")]
    pub(crate) shell: Shell,
}

/// The completion script of `shell` for the whole `smith` command tree.
pub fn script(shell: Shell) -> String {
    let mut cmd = crate::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "smith", &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// `smith completions SHELL`.
pub(crate) fn run(args: &CompletionsArgs) -> Result<u8, CliError> {
    write_stdout(&script(args.shell))
}
