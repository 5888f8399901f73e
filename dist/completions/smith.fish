# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_smith_global_optspecs
    string join \n c/config= disable-plugin= allow-process sandbox= permission-mode= m/model= session= continue script= h/help V/version
end

function __fish_smith_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_smith_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_smith_using_subcommand
    set -l cmd (__fish_smith_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c smith -n "__fish_smith_needs_command" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_needs_command" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_needs_command" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_needs_command" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_needs_command" -s m -l model -d 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else the model the session last recorded' -r
complete -c smith -n "__fish_smith_needs_command" -l session -d 'Open the existing session ID (a unique prefix is enough; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project). Held by another Smith process, it opens read-only' -r
complete -c smith -n "__fish_smith_needs_command" -l script -d 'Play this provider script (scripted provider only), as `smith eval --script` does' -r -F
complete -c smith -n "__fish_smith_needs_command" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_needs_command" -l continue -d 'Continue the session most recently written among those started in this directory, else in the nearest directory above it in its project (same as --session last)'
complete -c smith -n "__fish_smith_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c smith -n "__fish_smith_needs_command" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_needs_command" -f -a "eval" -d 'Run one agent turn without the terminal UI and print its output'
complete -c smith -n "__fish_smith_needs_command" -f -a "compact" -d 'Compact a session now: the model summarizes its older context, the recent part stays verbatim, and later requests start from the summary (history is kept)'
complete -c smith -n "__fish_smith_needs_command" -f -a "replay" -d 'Replay a recorded session from its file alone — no provider, nothing run — as its live runs showed it (plain, or the intents as JSON lines)'
complete -c smith -n "__fish_smith_needs_command" -f -a "undo" -d 'Take back the latest change a session\'s tool batch made to the working tree (files written by any tool, `bash` included), restoring the snapshot before it'
complete -c smith -n "__fish_smith_needs_command" -f -a "redo" -d 'Replay what the latest undo took back'
complete -c smith -n "__fish_smith_needs_command" -f -a "restore" -d 'Restore the working tree to a snapshot, or to its state at an entry of the session (time travel); recorded, so undo takes it back'
complete -c smith -n "__fish_smith_needs_command" -f -a "diff" -d 'Show what changed in the working tree between two snapshots or entries, as a git diff (or --stat, --json)'
complete -c smith -n "__fish_smith_needs_command" -f -a "rpc" -d 'Serve JSON-RPC 2.0 over stdin and stdout: sessions, submission with durable receipts, queue, abort, observation from durable positions, inspection'
complete -c smith -n "__fish_smith_needs_command" -f -a "mcp" -d 'Serve the Model Context Protocol over stdin and stdout for a client that spawns Smith: its tools with durable effects, sessions as resources, an agent turn as a tool'
complete -c smith -n "__fish_smith_needs_command" -f -a "acp" -d 'Serve the Agent Client Protocol over stdin and stdout for an editor that spawns Smith (Zed, JetBrains, Neovim, Emacs): sessions, prompts with streamed updates, permission requests, modes'
complete -c smith -n "__fish_smith_needs_command" -f -a "docs" -d 'Read Smith\'s documentation, offline: list, search and get documents'
complete -c smith -n "__fish_smith_needs_command" -f -a "config" -d 'Show, check and set configuration; every value with its source'
complete -c smith -n "__fish_smith_needs_command" -f -a "sessions" -d 'Inspect recorded sessions (list, search, read, verify, follow, the request an attempt sent), fork one, select the branch a session continues on, or edit what later requests show the model'
complete -c smith -n "__fish_smith_needs_command" -f -a "effects" -d 'List a session\'s effects whose outcome is unknown (a crash cut them off), with their evidence, and record your verdict on one'
complete -c smith -n "__fish_smith_needs_command" -f -a "trust" -d 'Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or revoke that trust)'
complete -c smith -n "__fish_smith_needs_command" -f -a "doctor" -d 'Report what this machine offers Smith: the OS sandbox the programs tools run start in (the kernel\'s Landlock, whether the configured mode is enforced, what each mode does)'
complete -c smith -n "__fish_smith_needs_command" -f -a "tools" -d 'List the active tools: name, plugin, description, input schema'
complete -c smith -n "__fish_smith_needs_command" -f -a "plugins" -d 'List the plugins: id, version, world, grants, state'
complete -c smith -n "__fish_smith_needs_command" -f -a "auth" -d 'Check provider credentials without a model request, and store a key (typed with echo off, or piped on stdin)'
complete -c smith -n "__fish_smith_needs_command" -f -a "secrets" -d 'Register secrets that never reach a provider, a session file or any output (stored with mode 0600, values never printed), and list every secret a run redacts'
complete -c smith -n "__fish_smith_needs_command" -f -a "models" -d 'List the model catalog: limits, capabilities, prices and where each figure comes from'
complete -c smith -n "__fish_smith_needs_command" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c smith -n "__fish_smith_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand eval" -s m -l model -d 'The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of models.kdl; default: the `model` setting, else (continuing a session) the model the session last recorded' -r
complete -c smith -n "__fish_smith_using_subcommand eval" -l thinking -d 'The thinking level to ask for: off, minimal, low, medium, high, xhigh or max (the model\'s catalog record must list it); default: the `thinking` setting, else the model\'s own default' -r
complete -c smith -n "__fish_smith_using_subcommand eval" -l session -d 'Append to the existing session ID (a unique prefix is enough; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of creating one' -r
complete -c smith -n "__fish_smith_using_subcommand eval" -l session-id -d 'Record into session ID (a UUID you choose), creating it if it does not exist yet and continuing it if it does: with --dedup-key, a retried first prompt is one admission' -r
complete -c smith -n "__fish_smith_using_subcommand eval" -l dedup-key -d 'Deduplicate this submission with KEY (needs --session or --session-id): if the session already admitted KEY with the same model and prompt, nothing runs and that submission\'s receipt and recorded answer are printed; KEY with other content fails (exit 2)' -r
complete -c smith -n "__fish_smith_using_subcommand eval" -l script -d 'Play this provider script (scripted provider only); the model name becomes its label' -r -F
complete -c smith -n "__fish_smith_using_subcommand eval" -l image -d 'Attach an image to the prompt (PNG, JPEG, GIF or WebP, at most 3.75 MiB each and 8 MiB in all, at most 16); repeatable. Sent only to a model whose catalog record says image input. `@shot.png` in the prompt attaches an image inside the working directory too' -r -F
complete -c smith -n "__fish_smith_using_subcommand eval" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand eval" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand eval" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand eval" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand eval" -l json -d 'Emit LF-delimited JSON records on stdout instead of plain text'
complete -c smith -n "__fish_smith_using_subcommand eval" -l continue -d 'Continue the session most recently written among those started in this directory, else in the nearest directory above it in its project (same as --session last)'
complete -c smith -n "__fish_smith_using_subcommand eval" -l no-session -d 'Record into a temporary session store, removed when the run succeeds'
complete -c smith -n "__fish_smith_using_subcommand eval" -l stdin -d 'Append standard input to the prompt as a fenced block (UTF-8, at most 1 MiB); without it stdin is not read when a prompt is given'
complete -c smith -n "__fish_smith_using_subcommand eval" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand eval" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand eval" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand compact" -l instructions -d 'What the summary should focus on (given to the compaction plugin)' -r
complete -c smith -n "__fish_smith_using_subcommand compact" -l keep-tokens -d 'Keep about N estimated tokens of recent context verbatim (default: the `compaction.keep-tokens` setting)' -r
complete -c smith -n "__fish_smith_using_subcommand compact" -s m -l model -d 'The model that writes the summary, as PROVIDER/MODEL or an alias or group; default: the `model` setting, else the model the session last recorded' -r
complete -c smith -n "__fish_smith_using_subcommand compact" -l script -d 'Play this provider script (scripted provider only)' -r -F
complete -c smith -n "__fish_smith_using_subcommand compact" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand compact" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand compact" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand compact" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand compact" -l json -d 'Emit the intents as LF-delimited JSON records on stdout instead of plain text'
complete -c smith -n "__fish_smith_using_subcommand compact" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand compact" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand compact" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand replay" -l turns -d 'Replay only turns A to B (from 1; `3` alone is `3..3`, `2..` to the last)' -r
complete -c smith -n "__fish_smith_using_subcommand replay" -l branch -d 'Replay the branch ending at entry ENTRY (an entry id, as `smith sessions get` lists them) instead of the session\'s selected branch' -r
complete -c smith -n "__fish_smith_using_subcommand replay" -l speed -d 'How fast: `real` (as recorded, gaps over 2 s shortened to 2 s), N (N times faster, e.g. 10 or 0.5) or `instant` (the default when stdout is not a terminal)' -r
complete -c smith -n "__fish_smith_using_subcommand replay" -l in -d 'With --execute: run in directory DIR as it is, instead of a scratch copy of the snapshot taken at the start of the range (DIR is changed by the calls)' -r -F
complete -c smith -n "__fish_smith_using_subcommand replay" -l report -d 'With --execute: also write the report as JSON lines to FILE' -r -F
complete -c smith -n "__fish_smith_using_subcommand replay" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand replay" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand replay" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand replay" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand replay" -l json -d 'Emit the intents as LF-delimited JSON records on stdout instead of plain text'
complete -c smith -n "__fish_smith_using_subcommand replay" -l tui -d 'Show the replay in the terminal UI (read-only; leave with Ctrl+C twice). Paced as recorded unless --speed says otherwise'
complete -c smith -n "__fish_smith_using_subcommand replay" -l execute -d 'Run the recorded tool calls again and report, per effect, whether it came out the same'
complete -c smith -n "__fish_smith_using_subcommand replay" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand replay" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand replay" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand undo" -l session -d 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)' -r
complete -c smith -n "__fish_smith_using_subcommand undo" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand undo" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand undo" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand undo" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand undo" -l turn -d 'Take back (or replay) every latest step of the same turn'
complete -c smith -n "__fish_smith_using_subcommand undo" -l snapshot-first -d 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing'
complete -c smith -n "__fish_smith_using_subcommand undo" -l json -d 'Print the result as one JSON record'
complete -c smith -n "__fish_smith_using_subcommand undo" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand undo" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand undo" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand redo" -l session -d 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)' -r
complete -c smith -n "__fish_smith_using_subcommand redo" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand redo" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand redo" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand redo" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand redo" -l turn -d 'Take back (or replay) every latest step of the same turn'
complete -c smith -n "__fish_smith_using_subcommand redo" -l snapshot-first -d 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing'
complete -c smith -n "__fish_smith_using_subcommand redo" -l json -d 'Print the result as one JSON record'
complete -c smith -n "__fish_smith_using_subcommand redo" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand redo" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand redo" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand restore" -l session -d 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)' -r
complete -c smith -n "__fish_smith_using_subcommand restore" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand restore" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand restore" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand restore" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand restore" -l snapshot-first -d 'Keep changes made since the session last recorded the tree in a snapshot and go on, instead of refusing'
complete -c smith -n "__fish_smith_using_subcommand restore" -l json -d 'Print the result as one JSON record'
complete -c smith -n "__fish_smith_using_subcommand restore" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand restore" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand restore" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand diff" -l session -d 'The session (a unique prefix of its id; `last`, the default: the session most recently written among those started in this directory, else in the nearest directory above it in its project)' -r
complete -c smith -n "__fish_smith_using_subcommand diff" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand diff" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand diff" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand diff" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand diff" -l stat -d 'git\'s `--stat` summary instead of the patch'
complete -c smith -n "__fish_smith_using_subcommand diff" -l json -d 'One JSON record with every file\'s change'
complete -c smith -n "__fish_smith_using_subcommand diff" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand diff" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand diff" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand rpc" -s m -l model -d 'The model sessions use unless a submission names one (as the `model` setting); `smith -m MODEL rpc` gives it too' -r
complete -c smith -n "__fish_smith_using_subcommand rpc" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand rpc" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand rpc" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand rpc" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand rpc" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand rpc" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand rpc" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -s m -l model -d 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -l session -d 'Record tool effects in this existing session (an id or unique prefix; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of a new one' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -l script -d 'Play this provider script in `smith_run` turns (scripted provider only); the model name becomes its label' -r -F
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -f -a "serve" -d 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -f -a "add" -d 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -f -a "list" -d 'List the MCP servers you added or declared in the configuration, each with its state'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -f -a "get" -d 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -f -a "remove" -d 'Remove an MCP server; its tools are no longer offered'
complete -c smith -n "__fish_smith_using_subcommand mcp; and not __fish_seen_subcommand_from serve add list get remove help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s m -l model -d 'The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l session -d 'Record tool effects in this existing session (an id or unique prefix; `last`: the session most recently written among those started in this directory, else in the nearest directory above it in its project) instead of a new one' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l script -d 'Play this provider script in `smith_run` turns (scripted provider only); the model name becomes its label' -r -F
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from serve" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -s e -l env -d 'A variable set for the server (repeatable); its value is never shown' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l cwd -d 'The server\'s working directory, relative to the session\'s' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l timeout -d 'How long it may take to answer `initialize` and `tools/list` (default 30, at most 600)' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l call-timeout -d 'How long it may stay silent during a tool call, its progress notifications counting as speech (default 300, at most 3600)' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l writable-root -d 'A directory the server\'s program may write beneath besides the project (repeatable)' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l url -d 'The Streamable HTTP endpoint of a server that is not a program' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l header -d 'A header sent with each request to --url (repeatable; kept in plain text with the server\'s entry, so give secrets with --secret)' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l secret -d 'A registered secret (smith secrets add NAME) Smith sends to --url\'s host as `Authorization: Bearer …`, or in HEADER' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l network -d 'Let the server\'s program reach the network although the sandbox denies it'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -l json -d 'One JSON record per server'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -l json -d 'One JSON record'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from remove" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from remove" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from remove" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from remove" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from remove" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "serve" -d 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "add" -d 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the MCP servers you added or declared in the configuration, each with its state'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "get" -d 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Remove an MCP server; its tools are no longer offered'
complete -c smith -n "__fish_smith_using_subcommand mcp; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand acp" -s m -l model -d 'The model sessions use unless the editor picks one (as the `model` setting); `smith -m MODEL acp` gives it too' -r
complete -c smith -n "__fish_smith_using_subcommand acp" -l script -d 'Play this provider script in every prompt\'s turn (scripted provider only); the model name picks nothing then' -r -F
complete -c smith -n "__fish_smith_using_subcommand acp" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand acp" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand acp" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand acp" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand acp" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand acp" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand acp" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -f -a "list" -d 'List every document: id, kind and title, ordered by id'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -f -a "search" -d 'Search the documentation; results are ranked by relevance, ties ordered by id'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -f -a "man" -d 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -f -a "get" -d 'Print one document, or a window of its lines'
complete -c smith -n "__fish_smith_using_subcommand docs; and not __fish_seen_subcommand_from list search man get help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -l json -d 'Emit one JSON record per document'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -l limit -d 'Hits per page (1 to 100)' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -l cursor -d 'Continue after the previous page (the cursor it printed)' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -l json -d 'Emit one JSON record per hit, then a `page` record'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from search" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -l list -d 'List the page names instead'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from man" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -l lines -d 'Body lines A..B, 1-based and inclusive (`A..` runs to the end; `A` is one line)' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -l json -d 'Emit the document as one JSON record'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from help" -f -a "list" -d 'List every document: id, kind and title, ordered by id'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from help" -f -a "search" -d 'Search the documentation; results are ranked by relevance, ties ordered by id'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from help" -f -a "man" -d 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from help" -f -a "get" -d 'Print one document, or a window of its lines'
complete -c smith -n "__fish_smith_using_subcommand docs; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -f -a "show" -d 'Print every setting (or KEY) with its resolved value and source'
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -f -a "check" -d 'Validate every configuration layer and report the first problem'
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -f -a "set" -d 'Write one setting to the user configuration (or the project\'s), keeping comments'
complete -c smith -n "__fish_smith_using_subcommand config; and not __fish_seen_subcommand_from show check set help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'One JSON record per setting: `key`, `value`, `source`, `level`'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from check" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from check" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from check" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from check" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from check" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -l project -d 'Write to the project\'s `.smith/config.kdl` instead'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print every setting (or KEY) with its resolved value and source'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "check" -d 'Validate every configuration layer and report the first problem'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Write one setting to the user configuration (or the project\'s), keeping comments'
complete -c smith -n "__fish_smith_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "list" -d 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt\'s first line)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "grep" -d 'Search recorded messages and tool output with a regular expression'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "get" -d 'Print the entries of one session, a bounded page at a time (by id, or --branch)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "export" -d 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "import" -d 'Import a session file — Smith\'s own export, or Codex CLI, Claude Code or pi — as a session; prints its id'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "fork" -d 'Copy a session\'s history up to an entry into a new session, published atomically; prints the new session\'s id'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "edit" -d 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "select" -d 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "receipts" -d 'List a session\'s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "watch" -d 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "verify" -d 'Read a whole session and check every frame, record and index; exit 3 on damage'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "delete" -d 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "prune" -d 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each'
complete -c smith -n "__fish_smith_using_subcommand sessions; and not __fish_seen_subcommand_from list grep get export import fork edit select receipts watch verify delete prune help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -l json -d 'One JSON record per session'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -l here -d 'Only the sessions started in this directory (what `smith eval --continue` picks from first; with none here it continues the nearest directory above it in its project)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -l json -d 'One JSON record per matching line'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from grep" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l limit -d 'Entries per page (1 to 1000)' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l cursor -d 'Continue after this entry id (the cursor the previous page printed)' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l request -d 'Instead of entries, the effective request of one attempt — its entry id as the page lists it, or TURN.ROUND.ATTEMPT (e.g. 1.2.1): the instructions, tool definitions and context exactly as the provider plugin received them, rebuilt from the session file alone and checked against the SHA-256 recorded at dispatch. Edited items show the edit; the entries themselves keep their original content' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l json -d 'One JSON record per entry, then a `page` record'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l branch -d 'Only the selected branch, from its leaf toward the root (newest first); the cursor then names the entry whose parent the next page starts at'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l usage -d 'Also account for the whole session, whatever the page: usage and cost per attempt and in total, and the memory each turn allocated (reads every attempt, so it costs more as the session grows)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l wire -d 'With --request: the HTTP request instead (method, path, headers, body), encoded again by the provider plugin generation that sent it — byte for byte what went out, without the credential header. Nothing is sent and no credential is read'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from get" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -l html -d 'Write one self-contained HTML page instead — the selected branch\'s conversation with collapsible thinking, tool calls with their results, the diffs of the working-tree changes, usage and cost — to FILE (default: stdout). The page loads and runs nothing' -r -F
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -l branch -d 'Only the selected branch, from its leaf toward the root (newest first, as `get --branch` pages it)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from export" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from import" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from import" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from import" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from import" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from import" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from import" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from import" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -l at -d 'The fork point: the new session holds entries 1..=ENTRY with ENTRY selected (default: the selected leaf)' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -l json -d 'Print a JSON record instead of the bare id'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from fork" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -l omit -d 'Leave this message or tool result out of what the model sees (repeatable). A tool call\'s message goes together with all of its results' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -l replace -d 'Show the model FILE\'s text instead of this message\'s text or tool result\'s output (repeatable; `-` reads standard input). A message keeps its tool calls' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from edit" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from select" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from select" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from select" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from select" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from select" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from select" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from select" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -l json -d 'One JSON record per submission: `submission`, `admitted_in`, `dedup_key`, `model`, `state` (`admitted` or `terminal`), `stop_reason`, `end`, `error`, `answer`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from receipts" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -l from -d 'The first entry to print (default 1: the whole history); the next entry id to be committed prints only what is new' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -l json -d 'One JSON record per entry, as `get --json` prints them'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -l until-idle -d 'Stop once every committed entry is printed and no process is writing the session'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from watch" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from verify" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from verify" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from verify" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from verify" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from verify" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from verify" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from verify" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -l dry-run -d 'List what would be removed, and remove nothing'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from delete" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -l older-than -d 'Remove the sessions last written longer ago than this: a number and a unit, such as `30d`, `2w`, `12h`, `90m`, `6 months`, `1y`' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -l keep -d 'Keep the N most recently written sessions whatever their age' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -l dry-run -d 'List what would be removed, and remove nothing'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from prune" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "list" -d 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt\'s first line)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "grep" -d 'Search recorded messages and tool output with a regular expression'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "get" -d 'Print the entries of one session, a bounded page at a time (by id, or --branch)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "export" -d 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "import" -d 'Import a session file — Smith\'s own export, or Codex CLI, Claude Code or pi — as a session; prints its id'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "fork" -d 'Copy a session\'s history up to an entry into a new session, published atomically; prints the new session\'s id'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "select" -d 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "receipts" -d 'List a session\'s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "watch" -d 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "verify" -d 'Read a whole session and check every frame, record and index; exit 3 on damage'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "delete" -d 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each'
complete -c smith -n "__fish_smith_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -l json -d 'One JSON record per effect'
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -a "reconcile" -d 'Record your verdict on an effect whose outcome is unknown'
complete -c smith -n "__fish_smith_using_subcommand effects; and not __fish_seen_subcommand_from reconcile help" -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -l note -d 'Why: what you checked (kept with the verdict; at most 4096 bytes)' -r
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from reconcile" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from help" -f -a "reconcile" -d 'Record your verdict on an effect whose outcome is unknown'
complete -c smith -n "__fish_smith_using_subcommand effects; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand trust" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand trust" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand trust" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand trust" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand trust" -l revoke -d 'Stop trusting the project instead'
complete -c smith -n "__fish_smith_using_subcommand trust" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand trust" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand trust" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand doctor" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand doctor" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand doctor" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand doctor" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand doctor" -l json -d 'Print one JSON record instead of the report'
complete -c smith -n "__fish_smith_using_subcommand doctor" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand doctor" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -f -a "list" -d 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema'
complete -c smith -n "__fish_smith_using_subcommand tools; and not __fish_seen_subcommand_from list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -l json -d 'One JSON record per tool: `name`, `plugin`, `description`, `input_schema`, `offered` (whether a run from here offers it) and `withheld` (why not, or null)'
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from help" -f -a "list" -d 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema'
complete -c smith -n "__fish_smith_using_subcommand tools; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -f -a "list" -d 'One line per plugin, in load order'
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -f -a "install" -d 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id'
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -f -a "uninstall" -d 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)'
complete -c smith -n "__fish_smith_using_subcommand plugins; and not __fish_seen_subcommand_from list install uninstall help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -l json -d 'One JSON record per plugin: `id`, `version`, `world`, `grants`, `state`, `tools`, `origin`, `disabled_by` when disabled, `refused_grants` (grant and why) for requested grants this directory does not give, such as `process.exec` with process.allow false, and `asked_grants` for those given only per use, on your answer, such as `process.exec` in an untrusted project, and `settings`: the `plugin.ID.NAME` settings it declares (`key`, `doc`, `needed_by` tools, and `value` and `source` when set)'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -l component -d 'The component to install; default: the one .wasm under the project\'s target/wasm32-wasip2/release/' -r -F
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from install" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from uninstall" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from uninstall" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from uninstall" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from uninstall" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from uninstall" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from uninstall" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from uninstall" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from help" -f -a "list" -d 'One line per plugin, in load order'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from help" -f -a "install" -d 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from help" -f -a "uninstall" -d 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)'
complete -c smith -n "__fish_smith_using_subcommand plugins; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -f -a "status" -d 'For each provider: whether its key is set and where it comes from (never the key)'
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -f -a "set" -d 'Store PROVIDER\'s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept'
complete -c smith -n "__fish_smith_using_subcommand auth; and not __fish_seen_subcommand_from status set help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -l json -d 'One JSON record per provider: `provider`, `env`, `required`, `source` (`environment`, `auth-file` or null)'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -l account -d 'Store it as this named account of the provider\'s bucket (used after the environment variable and the unnamed key, in file order) instead of as its key' -r
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "status" -d 'For each provider: whether its key is set and where it comes from (never the key)'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "set" -d 'Store PROVIDER\'s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept'
complete -c smith -n "__fish_smith_using_subcommand auth; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -f -a "add" -d 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -f -a "remove" -d 'Remove secret NAME from the store (records already written stay redacted)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -f -a "list" -d 'Every secret a run redacts: name, source and label (never a value)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and not __fish_seen_subcommand_from add remove list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -l label -d 'What it is, shown by `list` and recorded with its registration' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from remove" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from remove" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from remove" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from remove" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from remove" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from remove" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from remove" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -l json -d 'One JSON record per secret: `name`, `reference`, `source`, `label`'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from help" -f -a "add" -d 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from help" -f -a "remove" -d 'Remove secret NAME from the store (records already written stay redacted)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from help" -f -a "list" -d 'Every secret a run redacts: name, source and label (never a value)'
complete -c smith -n "__fish_smith_using_subcommand secrets; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand models" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand models" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand models" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand models" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand models" -l json -d 'One JSON record per model: `provider`, `id`, `uncatalogued_default`, `context`, `output`, `image_input`, `tools`, `strict_tools`, `thinking`, `cache`, `price` (USD per million tokens), `provenance` (`source`, `figures`, `conflicts`)'
complete -c smith -n "__fish_smith_using_subcommand models" -l refresh -d 'First ask each provider that lists its models what it serves now (the answer is kept; a failure keeps the previous one and says why on stderr)'
complete -c smith -n "__fish_smith_using_subcommand models" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand models" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand models" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand completions" -s c -l config -d 'Override one setting for this command (repeatable; highest precedence), e.g. `-c model=scripted/demo`. See `smith config show` for the settings' -r
complete -c smith -n "__fish_smith_using_subcommand completions" -l disable-plugin -d 'Do not load plugin ID for this command (repeatable): its tools are neither offered nor callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids' -r
complete -c smith -n "__fish_smith_using_subcommand completions" -l sandbox -d 'The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith docs get sandbox` says what each enforces' -r -f -a "read-only\t''
workspace-write\t''
full-access\t''"
complete -c smith -n "__fish_smith_using_subcommand completions" -l permission-mode -d 'The permission mode: `plan` (reads only; every write and program refused), `ask` (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get permissions` says what each does' -r -f -a "plan\t''
ask\t''
auto-edit\t''
auto\t''"
complete -c smith -n "__fish_smith_using_subcommand completions" -l allow-process -d 'Let tools run external programs (e.g. the `bash` tool) for this command as the permission mode decides, even though the project is not trusted (where each program is otherwise asked first). Same as `-c process.allow=true`'
complete -c smith -n "__fish_smith_using_subcommand completions" -s h -l help -d 'Print help'
complete -c smith -n "__fish_smith_using_subcommand completions" -s V -l version -d 'Print version'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "eval" -d 'Run one agent turn without the terminal UI and print its output'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "compact" -d 'Compact a session now: the model summarizes its older context, the recent part stays verbatim, and later requests start from the summary (history is kept)'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "replay" -d 'Replay a recorded session from its file alone — no provider, nothing run — as its live runs showed it (plain, or the intents as JSON lines)'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "undo" -d 'Take back the latest change a session\'s tool batch made to the working tree (files written by any tool, `bash` included), restoring the snapshot before it'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "redo" -d 'Replay what the latest undo took back'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "restore" -d 'Restore the working tree to a snapshot, or to its state at an entry of the session (time travel); recorded, so undo takes it back'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "diff" -d 'Show what changed in the working tree between two snapshots or entries, as a git diff (or --stat, --json)'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "rpc" -d 'Serve JSON-RPC 2.0 over stdin and stdout: sessions, submission with durable receipts, queue, abort, observation from durable positions, inspection'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "mcp" -d 'Serve the Model Context Protocol over stdin and stdout for a client that spawns Smith: its tools with durable effects, sessions as resources, an agent turn as a tool'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "acp" -d 'Serve the Agent Client Protocol over stdin and stdout for an editor that spawns Smith (Zed, JetBrains, Neovim, Emacs): sessions, prompts with streamed updates, permission requests, modes'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "docs" -d 'Read Smith\'s documentation, offline: list, search and get documents'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "config" -d 'Show, check and set configuration; every value with its source'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "sessions" -d 'Inspect recorded sessions (list, search, read, verify, follow, the request an attempt sent), fork one, select the branch a session continues on, or edit what later requests show the model'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "effects" -d 'List a session\'s effects whose outcome is unknown (a crash cut them off), with their evidence, and record your verdict on one'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "trust" -d 'Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or revoke that trust)'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "doctor" -d 'Report what this machine offers Smith: the OS sandbox the programs tools run start in (the kernel\'s Landlock, whether the configured mode is enforced, what each mode does)'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "tools" -d 'List the active tools: name, plugin, description, input schema'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "plugins" -d 'List the plugins: id, version, world, grants, state'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "auth" -d 'Check provider credentials without a model request, and store a key (typed with echo off, or piped on stdin)'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "secrets" -d 'Register secrets that never reach a provider, a session file or any output (stored with mode 0600, values never printed), and list every secret a run redacts'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "models" -d 'List the model catalog: limits, capabilities, prices and where each figure comes from'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "completions" -d 'Print a shell completion script (bash, zsh, fish, powershell, elvish)'
complete -c smith -n "__fish_smith_using_subcommand help; and not __fish_seen_subcommand_from eval compact replay undo redo restore diff rpc mcp acp docs config sessions effects trust doctor tools plugins auth secrets models completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "serve" -d 'Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says what is served)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "add" -d 'Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as mcp__NAME__TOOL'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "list" -d 'List the MCP servers you added or declared in the configuration, each with its state'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "get" -d 'Show one MCP server: its command or URL, environment or header names, sandbox, secret, and the tools it listed'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from mcp" -f -a "remove" -d 'Remove an MCP server; its tools are no longer offered'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from docs" -f -a "list" -d 'List every document: id, kind and title, ordered by id'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from docs" -f -a "search" -d 'Search the documentation; results are ranked by relevance, ties ordered by id'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from docs" -f -a "man" -d 'Print the manual page of `smith` or of one of its commands (roff: pipe it into `man -l -`), or list the pages with --list'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from docs" -f -a "get" -d 'Print one document, or a window of its lines'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Print every setting (or KEY) with its resolved value and source'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "check" -d 'Validate every configuration layer and report the first problem'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Write one setting to the user configuration (or the project\'s), keeping comments'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "list" -d 'List sessions, oldest first: id, creation time, size, last model, working directory and title (the first prompt\'s first line)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "grep" -d 'Search recorded messages and tool output with a regular expression'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "get" -d 'Print the entries of one session, a bounded page at a time (by id, or --branch)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "export" -d 'Stream the whole session as JSONL, one record per entry (the records of `get --json`), for inspection and interchange; the `.smith` file stays the authority'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "import" -d 'Import a session file — Smith\'s own export, or Codex CLI, Claude Code or pi — as a session; prints its id'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "fork" -d 'Copy a session\'s history up to an entry into a new session, published atomically; prints the new session\'s id'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "edit" -d 'Change what later requests show the model of earlier messages and tool results — omit them or replace their text — as one validated batch on the selected branch; the entries keep their original content'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "select" -d 'Select the branch ending at ENTRY; the next `smith eval --session ID` continues there, beside the existing branches (nothing is deleted)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "receipts" -d 'List a session\'s submissions with their receipts: key, model, and how the work ended (or that no end is recorded), rebuilt from the file alone'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "watch" -d 'Follow a session as it is written: print its committed entries from a position, then each new commit, with no gap (Ctrl-C ends the watching, never the work)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "verify" -d 'Read a whole session and check every frame, record and index; exit 3 on damage'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "delete" -d 'Delete sessions (refused for one being written), listing each, then the working-tree snapshots no remaining session references'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "prune" -d 'Delete the sessions last written longer ago than --older-than (keeping the --keep newest), as `delete` does, listing each'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from effects" -f -a "reconcile" -d 'Record your verdict on an effect whose outcome is unknown'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from tools" -f -a "list" -d 'One line per active tool (name, plugin, description, and why a run from here would not offer it); --json adds the input schema'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from plugins" -f -a "list" -d 'One line per plugin, in load order'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from plugins" -f -a "install" -d 'Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its plugin.kdl. Checked by loading it next to the enabled plugins before anything is written; replaces an installed plugin of the same id'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from plugins" -f -a "uninstall" -d 'Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "status" -d 'For each provider: whether its key is set and where it comes from (never the key)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from auth" -f -a "set" -d 'Store PROVIDER\'s API key in the auth file: asked for with echo off on a terminal, else read from stdin (one line); the entries of other providers are kept'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from secrets" -f -a "add" -d 'Store secret NAME: typed with echo off on a terminal, else read from stdin (one line, its line ending dropped)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from secrets" -f -a "remove" -d 'Remove secret NAME from the store (records already written stay redacted)'
complete -c smith -n "__fish_smith_using_subcommand help; and __fish_seen_subcommand_from secrets" -f -a "list" -d 'Every secret a run redacts: name, source and label (never a value)'
