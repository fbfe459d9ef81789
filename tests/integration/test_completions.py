"""raindctl's bash, zsh and fish completions come from its one declaration of
its commands: the scripts in packaging/completions/ are what `raindctl
completions SHELL` prints, and each shell, run for real with the committed
script, offers what the declaration says (bash through COMP_WORDS and the
completion function, zsh through zpty and a typed TAB, fish through
`complete -C`), saved places included, asked of a real raind."""
import functools
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest

from raindtest import BIN, RAINDCTL, ROOT

COMPLETIONS = ROOT / "packaging" / "completions"
SCRIPTS = {"bash": COMPLETIONS / "raindctl.bash", "zsh": COMPLETIONS / "_raindctl",
           "fish": COMPLETIONS / "raindctl.fish"}
BASH_COMPLETION = pathlib.Path("/usr/share/bash-completion/bash_completion")

needs_bash = pytest.mark.skipif(not BASH_COMPLETION.exists(),
                                reason="needs bash-completion (Debian package bash-completion)")
needs_zsh = pytest.mark.skipif(not shutil.which("zsh"), reason="needs zsh (Debian package zsh)")
needs_fish = pytest.mark.skipif(not shutil.which("fish"), reason="needs fish (Debian package fish)")


@functools.cache
def declaration():
    result = subprocess.run([RAINDCTL, "completions", "json"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def shown_commands():
    return [command for command in declaration()["commands"] if not command["hidden"]]


def command(name):
    return next(c for c in declaration()["commands"] if c["name"] == name)


def option(command_name, option_name):
    return next(o for o in command(command_name)["options"] if o["name"] == option_name)


@pytest.fixture
def shell_env(tmp_path):
    """The built raindctl first on PATH, a home of the test's own, and no raind
    to ask unless a test names one."""
    home = tmp_path / "home"
    home.mkdir()
    return {"PATH": f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}", "HOME": str(home),
            "XDG_RUNTIME_DIR": str(tmp_path / "no-runtime"), "RAIND_SOCKET": str(tmp_path / "no-raind.sock"),
            "LANG": "C.UTF-8", "TERM": "xterm"}


def bash_words(line):
    """COMP_WORDS as readline splits the line: at blanks, and '=' a word of its own."""
    words = []
    for token in line.split(" "):
        words += [part for part in re.split(r"(=)", token) if part] or [""]
    return words


def bash(line, env, words=None):
    """What bash offers: the committed script sourced after bash-completion,
    COMP_WORDS/COMP_CWORD/COMP_LINE/COMP_POINT set for the line, the
    completion function called and COMPREPLY read."""
    words = words or bash_words(line)
    program = f"""
source {BASH_COMPLETION}
source {SCRIPTS['bash']}
COMP_LINE=$1
shift
COMP_WORDS=("$@")
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 ))
COMP_POINT=${{#COMP_LINE}}
_raindctl raindctl "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    # compopt complains outside a real completion; COMPREPLY is what counts.
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", program, "bash", line, *words], env=env,
                            capture_output=True, text=True, timeout=20)
    assert result.returncode == 0, result.stderr
    return {word: "" for word in result.stdout.splitlines() if word}


ZSH_SETUP = r"""
PS1='' PS2='' RPS1=''
stty columns 1000 2>/dev/null; COLUMNS=1000
fpath=($RAINDCTL_COMPLETIONS $fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' list-grouped false
# Every match the completion adds, after zsh matched it to what is typed, as
# "MATCH word<TAB>display"; then adds it as usual.
compadd() {
    # A call that only asks for matches (-O, -A, -D) adds none: leave it be.
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return
    fi
    local -a __hits __display
    if (( $@[(I)-d] )); then
        local __name=${@[$(( ${@[(i)-d]} + 1 ))]}
        if [[ $__name == \(* ]]; then eval "__display=$__name"; else __display=("${(@P)__name}"); fi
    fi
    builtin compadd -A __hits -D __display "$@"
    local i
    for (( i = 1; i <= $#__hits; i++ )); do
        print -r -- "MATCH ${IPREFIX}${__hits[i]}"$'\t'"${__display[i]}"
    done
    builtin compadd "$@"
}
# TAB completes, then says it is done.
_raindctl_test_complete() { zle complete-word; print -r -- 'COMPLETION''-DONE' }
zle -N _raindctl_test_complete
bindkey '^I' _raindctl_test_complete
bindkey '^U' kill-whole-line
print -r -- 'SETUP''-DONE'
"""

ZSH_DRIVER = r"""
zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z "source ${(q)1}"
local line
while zpty -r z line; do [[ $line == *SETUP-DONE* ]] && break; done
# Each line typed and completed in turn, the line then cleared for the next.
for typed in "${@[2,-1]}"; do
    zpty -w -n z "$typed"$'\t'
    while zpty -r z line; do
        [[ $line == *COMPLETION-DONE* ]] && break
        print -r -- "${line%$'\r'}"
    done
    print -r -- 'LINE-DONE'
    zpty -w -n z $'\C-u'
done
zpty -d z
"""


def zsh(line, env, tmp_path):
    return zsh_lines([line], env, tmp_path)[0]


def zsh_lines(lines, env, tmp_path):
    """What zsh offers for each line: an interactive `zsh -f` in a zpty with
    compinit and the committed _raindctl on fpath, each line typed and a TAB;
    each match as zsh's compadd received it, with its description."""
    directory = tmp_path / "zsh-completions"
    directory.mkdir(exist_ok=True)
    shutil.copy(SCRIPTS["zsh"], directory / "_raindctl")
    setup = tmp_path / "zsh-setup.zsh"
    setup.write_text(ZSH_SETUP)
    driver = tmp_path / "zsh-driver.zsh"
    driver.write_text(ZSH_DRIVER)
    result = subprocess.run(["zsh", "-f", str(driver), str(setup), *lines],
                            env={**env, "RAINDCTL_COMPLETIONS": str(directory)}, capture_output=True, text=True,
                            timeout=30 + 5 * len(lines))
    assert result.returncode == 0, result.stderr
    offered = [{}]
    for text in result.stdout.splitlines():
        if text == "LINE-DONE":
            offered.append({})
        elif "MATCH " in text:
            word, _, display = text.split("MATCH ", 1)[1].partition("\t")
            offered[-1][word] = display.split(" -- ", 1)[1].strip() if " -- " in display else ""
    assert len(offered) == len(lines) + 1, result.stdout
    return offered[:-1]


def fish(line, env, tmp_path):
    """What fish offers: `complete -C` with the committed script as the one
    completion file fish may load."""
    directory = tmp_path / "fish-completions"
    directory.mkdir(exist_ok=True)
    shutil.copy(SCRIPTS["fish"], directory / "raindctl.fish")
    command = f"set -g fish_complete_path {directory}; complete -C {fish_quote(line)}"
    result = subprocess.run(["fish", "--no-config", "-c", command], env=env, capture_output=True, text=True,
                            timeout=20)
    assert result.returncode == 0, result.stderr
    offered = {}
    for text in result.stdout.splitlines():
        word, _, description = text.partition("\t")
        offered[word] = description
    return offered


def fish_quote(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


@pytest.fixture
def complete(shell_env, tmp_path):
    """complete(shell, line) -> {word offered: its description ('' in bash)};
    complete.lines(shell, lines) -> one such dict a line."""
    def run(shell, line, env=None):
        return run_lines(shell, [line], env)[0]

    def run_lines(shell, lines, env=None):
        env = {**shell_env, **(env or {})}
        if shell == "zsh":  # one zsh for them all: its start and compinit are the slow part
            return zsh_lines(lines, env, tmp_path)
        if shell == "bash":
            return [bash(line, env) for line in lines]
        return [fish(line, env, tmp_path) for line in lines]
    run.lines = run_lines
    return run


SHELLS = [pytest.param("bash", marks=needs_bash), pytest.param("zsh", marks=needs_zsh),
          pytest.param("fish", marks=needs_fish)]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_committed_script_is_what_the_declaration_makes(shell):
    made = subprocess.run([RAINDCTL, "completions", shell], capture_output=True, text=True, timeout=10)
    assert made.returncode == 0, made.stderr
    assert SCRIPTS[shell].read_text() == made.stdout, (
        f"{SCRIPTS[shell].relative_to(ROOT)} is not what 'raindctl completions {shell}' prints: "
        "run scripts/generate-completions")


def test_completions_command_refuses_an_unknown_shell():
    result = subprocess.run([RAINDCTL, "completions", "tcsh"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 64 and "unknown shell 'tcsh'" in result.stderr
    assert "completions" not in subprocess.run([RAINDCTL, "--help"], capture_output=True, text=True).stdout


@pytest.mark.parametrize("shell", SHELLS)
def test_commands_are_offered_with_help_and_without_the_hidden_one(complete, shell):
    names = {c["name"] for c in shown_commands()}
    assert "help" in names and "completions" not in names
    for offered in complete.lines(shell, ["raindctl ", "raindctl help ", "raindctl --socket /tmp/x.sock "]):
        assert set(offered) == names


@pytest.mark.parametrize("shell", SHELLS)
def test_value_lists_are_the_declared_ones(complete, shell):
    now, subscribe, units, now_icons, subscribe_icons = map(set, complete.lines(shell, [
        "raindctl now --format ", "raindctl subscribe --format ", "raindctl units ", "raindctl now --icons ",
        "raindctl subscribe --icons "]))
    # now --format takes bar, waybar or a template: people and json fail there with 64.
    assert now == {"bar", "waybar"}
    assert subscribe == {"people", "json", "bar", "waybar"}
    assert units == {"us", "si", "ca", "uk", "fahrenheit", "celsius"}
    assert now_icons == subscribe_icons == set(option("now", "--icons")["source"]["words"]) == {"emoji", "nerd", "text"}
    declared = command("units")["argument"]["source"]["words"]
    assert units == set(declared)
    assert command("units")["usage"] == ["raindctl units [" + "|".join(declared) + "]"]


@pytest.mark.parametrize("shell", SHELLS)
def test_the_next_event_after_a_comma(complete, shell):
    events = option("subscribe", "--events")["source"]["words"]
    assert len(events) >= 11
    after_one, after_two = complete.lines(shell, ["raindctl subscribe --events LocationAdded,",
                                                   "raindctl subscribe --events LocationAdded,WeatherUpdated,Re"])
    assert set(after_one) == {"LocationAdded," + name for name in events if name != "LocationAdded"}
    assert set(after_two) == {"LocationAdded,WeatherUpdated," + name for name in events if name.startswith("Re")}


@needs_bash
def test_bash_completes_a_value_after_equals(shell_env):
    assert set(bash("raindctl now --format=wa", shell_env)) == {"waybar"}


@pytest.mark.parametrize("shell", SHELLS)
def test_every_option_is_offered_with_its_declared_description(complete, shell):
    commands = shown_commands()
    for spec, offered in zip(commands, complete.lines(shell, [f"raindctl {c['name']} -" for c in commands])):
        for declared in spec["options"]:
            name = declared["name"]
            # zsh offers an option that takes a value as --name= (value after = or as the next word).
            word = name if name in offered else name + "="
            assert word in offered, f"{shell} does not offer {name} for {spec['name']}: {sorted(offered)}"
            if shell != "bash":  # bash shows no descriptions
                assert offered[word] == declared["summary"], (shell, spec["name"], name)
        assert {"-h", "--help"} <= set(offered), (shell, spec["name"], sorted(offered))


@pytest.mark.parametrize("shell", [pytest.param("zsh", marks=needs_zsh), pytest.param("fish", marks=needs_fish)])
def test_commands_are_described_as_in_help(complete, shell):
    commands, offered = complete.lines(shell, ["raindctl ", "raindctl subscribe --t"])
    for spec in shown_commands():
        assert commands[spec["name"]] == spec["summary"], (shell, spec["name"])
    # --text is the template of waybar's text, not of its tooltip.
    assert set(offered) <= {"--text", "--text="} and len(offered) == 1
    assert list(offered.values()) == ["with --format waybar: the template for its text"]


@pytest.mark.parametrize("shell", SHELLS)
def test_saved_places_are_asked_of_the_running_raind(complete, daemon, shell):
    for lat, lon, name in ((48.8534, 2.3488, "Paris"), (51.5085, -0.1257, "London")):
        daemon.ctl("add", "--coords", f"{lat},{lon}", "--name", name, check=True)
    names = ["remove", "set-location", "refresh", "now", "hourly", "daily"]
    offered = complete.lines(shell, [f"raindctl {name} " for name in names] + ["raindctl now p"],
                             env={"RAIND_SOCKET": str(daemon.socket)})
    for name, places in zip(names, offered):
        assert set(places) == {"london-gb", "paris-fr"}, name
    assert set(offered[-1]) == {"paris-fr"}
    # Without $RAIND_SOCKET: --socket before the command is the raind asked, and with
    # no raind nothing is offered (and no error reaches the terminal).
    given, none = complete.lines(shell, [f"raindctl --socket {daemon.socket} remove ", "raindctl remove "])
    assert set(given) == {"london-gb", "paris-fr"}
    assert none == {}
