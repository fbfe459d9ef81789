"""The man page and the bash completion follow raindctl's own command table:
every command, and every option a command's --help names, appears in both,
and neither names a command raindctl does not have. The man page's synopses
and options are held to raindctl's declaration of its commands (`raindctl
completions json`), which its help, parsing and completions are made from."""
import json
import re
import shlex
import subprocess

from raindtest import RAINDCTL, ROOT

MAN = ROOT / "packaging" / "man" / "raindctl.1"
COMPLETION = ROOT / "packaging" / "completions" / "raindctl.bash"


def run(*args):
    return subprocess.run([RAINDCTL, *args], capture_output=True, text=True, timeout=10)


def commands():
    """The command table, as `raindctl --help` prints it."""
    text = run("--help").stdout
    block = text.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in block.splitlines() if line.strip()]


def options(command):
    """The options a command's own --help names."""
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", run(command, "--help").stdout)) - {"--help"}


def man_entries():
    """COMMANDS in raindctl(1): each entry's command name and the options it names."""
    section = MAN.read_text().split(".SH COMMANDS", 1)[1].split("\n.SH ", 1)[0]
    entries = {}
    for chunk in section.split(".TP\n")[1:]:
        name = re.match(r"\.B ([a-z\\-]+)", chunk).group(1).replace("\\-", "-")
        found = set(re.findall(r"\\-\\-([a-z](?:[a-z]|\\-)*)", chunk))
        entries.setdefault(name, set()).update("--" + option.replace("\\-", "-") for option in found)
    return entries


def declaration():
    """raindctl's declaration of its commands and options."""
    result = run("completions", "json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def plain(roff):
    """A roff line as the words it shows."""
    return " ".join(re.sub(r"\\f[BIRP]", "", roff).replace("\\-", "-").split())


def man_synopses():
    """Each COMMANDS entry's synopsis lines (its .B line and those after .TQ), as text."""
    section = MAN.read_text().split(".SH COMMANDS", 1)[1].split("\n.SH ", 1)[0]
    synopses = {}
    for chunk in section.split(".TP\n")[1:]:
        lines = chunk.split("\n")
        found = [lines[0]]
        while len(lines) > len(found) * 2 and lines[len(found) * 2 - 1] == ".TQ":
            found.append(lines[len(found) * 2])
        text = [plain(line.removeprefix(".B ")) for line in found]
        synopses.setdefault(text[0].split()[0], []).extend(text)
    return synopses


def completion():
    """The bash completion's command list and each command's options."""
    text = COMPLETION.read_text()
    names = re.search(r'local commands="([^"]*)"', text).group(1).split()
    per_command = {}
    for pattern, body in re.findall(r"^\s+([a-z| -]+)\)\s*(.*?)(?:;;|$)", text, re.M):
        listed = re.search(r'options="([^"]*)"', body)
        for name in (part.strip() for part in pattern.split("|")):
            per_command[name] = set(listed.group(1).split()) if listed else set()
    return names, per_command


def test_every_command_is_in_the_man_page_and_nothing_else():
    table = commands()
    assert len(table) >= 12
    assert set(man_entries()) == set(table) | {"help"}


def test_every_option_of_a_command_is_in_its_man_page_entry():
    entries = man_entries()
    for command in commands():
        missing = options(command) - entries[command]
        assert not missing, f"raindctl(1) does not document {sorted(missing)} for {command}"


def test_bash_completion_offers_every_command_and_option():
    names, per_command = completion()
    assert set(names) == set(commands()) | {"help"}
    for command in commands():
        offered = per_command.get(command, set())
        assert options(command) <= offered | {"--socket"}, f"completion of {command} lacks {options(command) - offered}"


def test_bash_completion_knows_every_event():
    known = run("subscribe", "--events", "NoSuchEvent").stderr
    events = set(re.search(r"known: (.*)", known).group(1).replace(",", " ").split())
    listed = set(re.search(r'local events="([^"]*)"', COMPLETION.read_text()).group(1).split())
    assert events and listed == events


def test_man_page_lists_every_template_field():
    known = run("now", "--format", "{nosuchfield}").stderr
    fields = set(re.findall(r"\{[a-z_]+\}", known.split("known:", 1)[1]))
    section = MAN.read_text().split(".SH TEMPLATES", 1)[1].split("\n.SH ", 1)[0]
    documented = set(re.findall(r"\\fB(\{[a-z_]+\})\\fR", section))
    assert len(fields) >= 18 and documented == fields


def test_man_page_synopses_are_the_declared_usage_lines():
    synopses = man_synopses()
    shown = [command for command in declaration()["commands"] if not command["hidden"]]
    assert {command["name"] for command in shown} == set(synopses)
    for command in shown:
        declared = [" ".join(line.split()).removeprefix("raindctl ") for line in command["usage"]]
        assert synopses[command["name"]] == declared, f"raindctl(1)'s synopsis of {command['name']} is not its usage"


def test_man_page_entries_name_the_declared_options_and_no_others():
    entries = man_entries()
    for command in declaration()["commands"]:
        if command["hidden"]:
            continue
        declared = {option["name"] for option in command["options"]}
        # The paragraph after the last entry is about every command's --json.
        documented = entries[command["name"]] - ({"--json"} if command["name"] == "help" else set())
        assert documented - {"--help"} == declared, f"raindctl(1) on {command['name']}: {documented} against {declared}"


def test_man_page_options_are_the_declared_global_options():
    section = MAN.read_text().split(".SH OPTIONS", 1)[1].split("\n.SH ", 1)[0]
    # .B joins its words with spaces; .BI and .BR alternate fonts with none between.
    documented = [(" " if line.startswith(".B ") else "").join(shlex.split(plain(line.split(" ", 1)[1])))
                  for line in section.split("\n") if line.startswith((".B ", ".BI ", ".BR "))]
    declared = [(option["short"] + ", " if option["short"] else "") + option["name"]
                + (" " + option["value"] if option["value"] else "") for option in declaration()["options"]]
    assert documented == declared
