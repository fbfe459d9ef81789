"""What scripts/order-raindctl and scripts/order-raind share: a program run
under valgrind's lackey, which reports every address it runs, reads or
writes, and the functions and variables of its symbol table those addresses
lie in, in the order first touched: the list lld places first
(--symbol-ordering-file)."""
import bisect
import json
import pathlib
import re
import socket
import subprocess

# Lines "I  04049d0,3" (run), " L 00d4e388,8" (read), " S ..." (written), " M ..." (both).
LACKEY_LINE = re.compile(rb"^[ILSM ] ?[LSM ]? *([0-9a-f]+),", re.M)
# glibc's forms of one function for different CPUs, chosen at start (ifunc): __memmove_avx_unaligned_erms.
CPU_FORM = re.compile(r"^(__\w+?)_(sse2|ssse3|sse4_1|sse4_2|avx|avx2|evex|evex512|avx512|erms)(_|$)")
# glibc's cache size code, one function per CPU vendor.
VENDOR_FORMS = {"handle_intel", "intel_check_word", "handle_amd", "handle_zhaoxin"}
# Times in what raind wrote lie near the moment it wrote them; counts, sizes and durations do not.
WINDOW = (-400 * 86400, 400 * 86400)


def first_reply(path, message, timeout=None):
    """The first reply to the Varlink `message` (a dict) on the socket at `path`; None when the
    server closes the connection before it. A call made with "more" is closed after it."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.settimeout(timeout)
        connection.connect(str(path))
        connection.sendall(json.dumps(message).encode() + b"\0")
        data = b""
        while b"\0" not in data:
            chunk = connection.recv(65536)
            if not chunk:
                return None
            data += chunk
    return json.loads(data.split(b"\0", 1)[0])


def lackey(binary, arguments, log):
    """valgrind's command line tracing `binary` with `arguments` into `log`."""
    return ["valgrind", "--tool=lackey", "--trace-mem=yes", f"--log-file={log}", str(binary), *arguments]


def stripped(binary, copy):
    """Copies `binary` to `copy` without its debug information, which valgrind 3.19 cannot read
    (DWARF 5); the symbols stay."""
    subprocess.run(["strip", "--strip-debug", str(binary), "-o", str(copy)], check=True)


def moved(value, by, recorded):
    """`value` with every time in it moved by `by` seconds."""
    if isinstance(value, dict):
        return {key: moved(item, by, recorded) for key, item in value.items()}
    if isinstance(value, list):
        return [moved(item, by, recorded) for item in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if WINDOW[0] <= value - recorded <= WINDOW[1]:
            return value + by
    return value


def valgrind_said(log):
    """The last lines valgrind wrote to its log: why it stopped, when the program said nothing.
    Only the log's end is read: before it lies the whole trace."""
    try:
        with open(log, "rb") as file:
            file.seek(max(0, file.seek(0, 2) - 65536))
            lines = file.read().decode(errors="replace").splitlines()
    except OSError:
        return "no valgrind log"
    said = [line.split("== ", 1)[1] for line in lines if line.startswith("==") and "== " in line]
    return "; ".join(line for line in said[-3:] if line.strip()) or "no message"


def symbols(binary):
    """Every function and variable of `binary` with a size: (start, size, name), by address."""
    table = subprocess.run(["nm", "-n", "-S", str(binary)], capture_output=True, text=True, check=True).stdout
    found = []
    for line in table.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[2] in "TtDdBbRrVvWw" and int(fields[1], 16) > 0:
            found.append((int(fields[0], 16), int(fields[1], 16), fields[3]))
    return sorted(found)


def addresses_in(log):
    """Every address the lackey `log` names, once each, in the order first named. The log holds a
    line for each instruction run and each access, gigabytes for a program's start: it is read a
    block at a time."""
    addresses = {}
    with open(log, "rb") as lines:
        rest = b""
        while block := lines.read(1 << 24):
            block = rest + block
            end = block.rfind(b"\n") + 1
            addresses.update(dict.fromkeys(LACKEY_LINE.findall(block[:end])))
            rest = block[end:]
        addresses.update(dict.fromkeys(LACKEY_LINE.findall(rest)))
    return addresses


def touched(log, table, starts, seen, order, base=0):
    """Adds to `order` each symbol of `table` the lackey `log` touched, the first time; `base` is
    where the program was loaded (a position-independent one's symbols start at 0)."""
    for text in addresses_in(log):
        address = int(text, 16) - base
        index = bisect.bisect_right(starts, address) - 1
        if index < 0:
            continue
        start, size, name = table[index]
        if address < start + size and name not in seen:
            seen.add(name)
            order.append(name)


def with_every_form(order, names):
    """`order` with every CPU's and vendor's form of a glibc function beside the one this CPU ran."""
    families = {}
    for name in names:
        match = CPU_FORM.match(name)
        if match:
            families.setdefault(match.group(1), []).append(name)
    complete, seen = [], set()
    for name in order:
        match = CPU_FORM.match(name)
        if match:
            forms = sorted(families[match.group(1)])
        elif name.split(".")[0] in VENDOR_FORMS:  # handle_intel.constprop.0
            forms = sorted(other for other in names if other.split(".")[0] in VENDOR_FORMS)
        else:
            forms = [name]
        for form in [name] + forms:
            if form not in seen:
                seen.add(form)
                complete.append(form)
    return complete
