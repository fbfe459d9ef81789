"""The docs follow what they describe. The man page and the bash completion
follow raindctl's own command table: every command, and every option a
command's --help names, appears in both, and neither names a command raindctl
does not have. The man page's synopses and options are held to raindctl's
declaration of its commands (`raindctl completions json`), which its help,
parsing and completions are made from. docs/PROTOCOL.md's reference follows
the IDL."""
import json
import re
import shlex
import socket
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
    # A description past 80 columns continues on a line indented under it.
    return [line.split()[0] for line in block.splitlines() if re.match(r"  \S", line)]


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


def test_readme_command_summary_names_every_command_and_its_options():
    """The README's command list: every command, with every option its --help
    names (but --json, which the list says most commands have)."""
    text = (ROOT / "README.md").read_text()
    block = text.split("The commands (", 1)[1].split("\n## ", 1)[0]
    bullets = re.split(r"^- ", block, flags=re.M)[1:]
    for command in commands():
        bullet = next((b for b in bullets if re.search(r"`" + re.escape(command) + r"\b", b)), None)
        assert bullet, f"the README's command summary lacks {command}"
        named = set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", bullet))
        missing = options(command) - {"--json"} - named
        assert not missing, f"the README's summary of {command} lacks {sorted(missing)}"


# docs/PROTOCOL.md's reference against protocol/io.raind.Weather.varlink:
# every method, type and error of the IDL has a section (### Name) under its
# part (## Methods, ## Types, ## Errors) whose tables list each parameter,
# reply field or field with its type exactly as the IDL writes it, and the
# reference names nothing the IDL lacks.

IDL = ROOT / "protocol" / "io.raind.Weather.varlink"
PROTOCOL = ROOT / "docs" / "PROTOCOL.md"


def split_fields(text):
    """`a: string, b: ?(x, y)` → {"a": "string", "b": "?(x, y)"}: commas inside parentheses stay."""
    fields, depth, start = {}, 0, 0
    for index, char in enumerate(text + ","):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            part = text[start:index].strip()
            start = index + 1
            if part:
                name, kind = part.split(":", 1)
                fields[name.strip()] = " ".join(kind.split())
    return fields


def parenthesised(text, start):
    """The text inside the parentheses that open at `start`, and the index after them."""
    depth = 0
    for index in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return text[start + 1:index], index + 1
    raise AssertionError(f"unbalanced parentheses in the IDL after {text[start:start + 40]!r}")


def idl_members(text):
    """{"method": {name: (parameters, reply)}, "type": {name: fields}, "error": {name: parameters}}."""
    text = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    members = {"method": {}, "type": {}, "error": {}}
    for match in re.finditer(r"\b(method|type|error)\s+(\w+)\s*\(", text):
        kind, name = match.group(1), match.group(2)
        inner, after = parenthesised(text, match.end() - 1)
        if kind == "method":
            arrow = re.match(r"\s*->\s*\(", text[after:])
            reply, _ = parenthesised(text, after + arrow.end() - 1)
            members[kind][name] = (split_fields(inner), split_fields(reply))
        else:
            members[kind][name] = split_fields(inner)
    return members


def doc_reference(text):
    """{part: {section: {first header cell: {name: type}}}} for ## Methods, ## Types, ## Errors."""
    parts = {}
    for chunk in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = chunk.partition("\n")
        if title.strip() not in ("Methods", "Types", "Errors"):
            continue
        sections = parts.setdefault(title.strip(), {})
        for section in re.split(r"^### ", body, flags=re.M)[1:]:
            name, _, rest = section.partition("\n")
            tables = sections.setdefault(name.strip(), {})
            table = None
            for line in rest.splitlines():
                cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.startswith("|") else None
                if cells is None:
                    table = None
                elif table is None:
                    table = tables.setdefault(cells[0], {})
                elif not set(cells[0]) <= set("-: "):
                    assert len(cells) >= 2, f"{name}: a table row without a type: {line}"
                    table[cells[0].strip("`")] = cells[1].strip("`")
    return parts


def reference_problems(protocol_text, idl_text):
    """What docs/PROTOCOL.md's reference gets wrong about the IDL, in words."""
    idl = idl_members(idl_text)
    docs = doc_reference(protocol_text)
    problems = []

    def compare(where, documented, declared):
        for name, kind in declared.items():
            if name not in documented:
                problems.append(f"{where}: `{name}: {kind}` is not listed")
            elif documented[name] != kind:
                problems.append(f"{where}: `{name}` is listed as `{documented[name]}`, the IDL says `{kind}`")
        for name in documented.keys() - declared.keys():
            problems.append(f"{where}: `{name}` is not in the IDL")

    for part, kind, tables in (("Methods", "method", ("parameter", "reply")), ("Types", "type", ("field",)),
                               ("Errors", "error", ("parameter",))):
        sections = docs.get(part, {})
        for name in sections.keys() - idl[kind].keys():
            problems.append(f"## {part} has a section {name}, which is not a {kind} of the IDL")
        for name, declared in idl[kind].items():
            if name not in sections:
                problems.append(f"## {part} has no section for the {kind} {name}")
                continue
            declared = declared if kind == "method" else (declared,)
            for header, fields in zip(tables, declared):
                compare(f"{name} ({header})", sections[name].get(header, {}), fields)
    return problems


def test_protocol_reference_lists_every_method_type_and_error_of_the_idl_and_nothing_else():
    problems = reference_problems(PROTOCOL.read_text(), IDL.read_text())
    assert not problems, "docs/PROTOCOL.md and the IDL differ:\n" + "\n".join(problems)


def test_protocol_reference_check_sees_what_is_missing_wrong_or_extra():
    text, idl = PROTOCOL.read_text(), IDL.read_text()
    assert len(idl_members(idl)["method"]) == 11 and len(idl_members(idl)["error"]) == 12
    # A section deleted.
    start = text.index("### SubscriberTooSlow")
    cut = text[:start] + text[text.index("### ", start + 4):]
    assert "## Errors has no section for the error SubscriberTooSlow" in reference_problems(cut, idl)
    # A parameter row gone, a type changed, a field the IDL lacks.
    assert "SearchPlaces (parameter): `limit: ?int` is not listed" in reference_problems(
        text.replace("| `limit` | `?int` |", "| `limit2` | `?int` |"), idl)
    assert "Status (field): `online` is listed as `?bool`, the IDL says `bool`" in reference_problems(
        text.replace("| `online` | `bool` | whether raind believes", "| `online` | `?bool` | whether raind believes"), idl)
    assert any("`limit2` is not in the IDL" in problem for problem in reference_problems(
        text.replace("| `limit` | `?int` |", "| `limit2` | `?int` |"), idl))
    # A section for something the IDL does not have.
    extra = text.replace("### Offline\n", "### Offline\n\n### Unheard\n\n| parameter | type |\n| --- | --- |\n\n", 1)
    assert "## Errors has a section Unheard, which is not a error of the IDL" in reference_problems(extra, idl)


def test_protocol_events_table_lists_every_event_with_fields_of_the_subscribe_reply():
    known = run("subscribe", "--events", "NoSuchEvent").stderr
    events = set(re.search(r"known: (.*)", known).group(1).replace(",", " ").split())
    section = PROTOCOL.read_text().split("\n## Events\n", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]*) \|", section, re.M)
    documented = {name: set(re.findall(r"`(\w+)`", fields)) for name, fields in rows if name[0].isupper()}
    assert set(documented) == events | {"Snapshot"}
    reply = idl_members(IDL.read_text())["method"]["Subscribe"][1]
    for name, fields in documented.items():
        assert fields and fields <= set(reply) - {"event"}, f"{name} names fields the Subscribe reply lacks"


def test_protocol_lists_only_errors_raind_declares_for_org_varlink_service(daemon):
    """The errors of org.varlink.service named in PROTOCOL.md are in the
    standard interface text raind serves."""
    reply = daemon.client().call("org.varlink.service.GetInterfaceDescription", {"interface": "org.varlink.service"})
    declared = set(re.findall(r"^error (\w+)", reply["parameters"]["description"], re.M))
    section = PROTOCOL.read_text().split("\n## Errors of org.varlink.service\n", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    assert len(listed) >= 5 and listed <= declared, f"not in org.varlink.service: {listed - declared}"


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


def test_protocol_error_examples_are_what_raind_answers(daemon):
    """Issue 32, point 5: each error example of PROTOCOL.md whose call needs
    no network (a wrong parameter, malformed JSON, a missing `more`, the
    selected place removed, an ambiguous name) is the real daemon's answer,
    word for word (`…` in the example stands for anything; the example's
    line breaks and spaces are not compared)."""
    daemon.ctl("add", "--coords", "48.8534,2.3488", "--name", "Paris", check=True)
    lines = PROTOCOL.read_text().split("\n")
    offline = ("GetStatus\",\"parameters\":{\"x\"", "{not json", "Subscribe\"}", "RemoveLocation",
               "\"query\":\"Portland\"")
    checked = 0
    for index, line in enumerate(lines):
        if not line.startswith("→ ") or not any(call in line for call in offline):
            continue
        answer = []
        for following in lines[index + 1:]:
            if following.startswith("→ ") or not following.strip() or following.startswith("```"):
                break
            answer.append(following.removeprefix("← "))
        said = re.sub(r"\s+", "", "".join(answer))
        if '"error"' not in said:
            continue
        with socket.socket(socket.AF_UNIX) as client:
            client.connect(str(daemon.socket))
            client.settimeout(10)
            client.sendall(line[2:].encode() + b"\0")
            reply = b""
            while not reply.endswith(b"\0"):
                reply += client.recv(65536)
        real = re.sub(r"\s+", "", reply[:-1].decode())
        pattern = ".*".join(re.escape(part) for part in said.split("…"))
        assert re.fullmatch(pattern, real), f"PROTOCOL.md says\n{said}\nraind answers\n{real}"
        checked += 1
    assert checked >= 5, checked
