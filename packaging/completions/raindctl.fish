# fish completion for raindctl.
# Installed as /usr/share/fish/vendor_completions.d/raindctl.fish.
# Made by 'raindctl completions fish' from raindctl's declaration of its
# commands (scripts/generate-completions writes this file): change that
# declaration in Sources/raindctl, not this file.

# The command on the line: the first word after the global options; false
# while there is none.
function __raindctl_command
    set -l tokens (commandline -opc)
    set -e tokens[1]
    while set -q tokens[1]
        switch $tokens[1]
            case --socket
                set tokens $tokens[3..-1]
            case '-*'
                set -e tokens[1]
            case '*'
                echo $tokens[1]
                return 0
        end
    end
    return 1
end

# Whether the command on the line is one of these.
function __raindctl_command_is
    set -l command (__raindctl_command); or return 1
    contains -- $command $argv
end

# Saved place ids, asked of the running raind (quietly nothing if it is not running).
function __raindctl_places
    set -l socket
    set -l tokens (commandline -opc)
    if set -l index (contains -i -- --socket $tokens)
        set socket --socket $tokens[(math $index + 1)]
    else if set -l given (string match -r -- '^--socket=(.*)' $tokens)
        set socket --socket $given[2]
    end
    raindctl $socket list --json 2>/dev/null | string match -ar '"id":"[^"]*","name"' | string replace -r '^"id":"(.*)","name"$' '$1'
end

# A comma-separated list of the words given: what is typed up to the last
# comma, then each word not in it yet.
function __raindctl_list
    set -l token (commandline -ct)
    set -l typed (string replace -r -- '^--[^=]*=' '' "$token")
    set -l done (string replace -r -- '[^,]*$' '' "$typed")
    set -l given (string split -- , "$done")
    for word in $argv
        contains -- $word $given; or printf '%s\n' "$done$word"
    end
end

complete -c raindctl -f
complete -c raindctl -n 'not __raindctl_command' -l socket -r -F -d 'the daemon\'s socket'
complete -c raindctl -n 'not __raindctl_command' -l version -d 'print the version'
complete -c raindctl -s h -l help -d 'show help'
complete -c raindctl -n 'not __raindctl_command' -a 'status' -d 'show the daemon\'s state: places, units, refresh times, upstream calls'
complete -c raindctl -n 'not __raindctl_command' -a 'list' -d 'list the saved places; * marks the selected one'
complete -c raindctl -n 'not __raindctl_command' -a 'add' -d 'save a place by name, by coordinates, or the current position'
complete -c raindctl -n 'not __raindctl_command' -a 'remove' -d 'remove a saved place (not the selected one)'
complete -c raindctl -n 'not __raindctl_command' -a 'set-location' -d 'select a saved place: the one status bars and now/hourly/daily show'
complete -c raindctl -n 'not __raindctl_command' -a 'units' -d 'show or set the unit system: us, si, ca, uk (or fahrenheit, celsius)'
complete -c raindctl -n 'not __raindctl_command' -a 'refresh' -d 'fetch the weather now (the selected place, PLACE, or --all)'
complete -c raindctl -n 'not __raindctl_command' -a 'now' -d 'current conditions: temperature, feels-like, wind, chance of rain'
complete -c raindctl -n 'not __raindctl_command' -a 'hourly' -d 'the coming hours: time, temperature, wind, rain'
complete -c raindctl -n 'not __raindctl_command' -a 'daily' -d 'the coming days: weekday, date, min/max, wind, rain'
complete -c raindctl -n 'not __raindctl_command' -a 'accuracy' -d 'how each provider\'s forecasts compared with what was observed'
complete -c raindctl -n 'not __raindctl_command' -a 'search' -d 'find places by name in raind\'s place data'
complete -c raindctl -n 'not __raindctl_command' -a 'subscribe' -d 'print every change as it happens (for people, scripts and status bars)'
complete -c raindctl -n 'not __raindctl_command' -a 'help' -d 'show this help, or a command\'s (raindctl help COMMAND)'

complete -c raindctl -n '__raindctl_command_is status' -l json -d 'print the status as one JSON object'

complete -c raindctl -n '__raindctl_command_is list' -l json -d 'print the places and the selected one as one JSON object'

complete -c raindctl -n '__raindctl_command_is add' -l coords -x -d 'save the place at LAT,LON (decimal degrees)'
complete -c raindctl -n '__raindctl_command_is add' -l name -x -d 'name the place (with --coords or --current)'
complete -c raindctl -n '__raindctl_command_is add' -l current -d 'save the machine\'s position'
complete -c raindctl -n '__raindctl_command_is add' -l follow -d 'the place follows you (with --current)'
complete -c raindctl -n '__raindctl_command_is add' -l json -d 'print raind\'s reply'

complete -c raindctl -n '__raindctl_command_is remove' -a '(__raindctl_places)' -d 'saved place'

complete -c raindctl -n '__raindctl_command_is set-location' -a '(__raindctl_places)' -d 'saved place'

complete -c raindctl -n '__raindctl_command_is units' -a 'us si ca uk fahrenheit celsius' -d 'unit system'

complete -c raindctl -n '__raindctl_command_is refresh' -l all -d 'every saved place'
complete -c raindctl -n '__raindctl_command_is refresh' -a '(__raindctl_places)' -d 'saved place'

complete -c raindctl -n '__raindctl_command_is now' -l json -d 'print raind\'s reply (location, forecast, ageSeconds, stale) and the conditions shown'
complete -c raindctl -n '__raindctl_command_is now' -l format -x -a 'bar waybar' -d 'one line: bar, waybar or a template such as \'{icon} {temp}\''
complete -c raindctl -n '__raindctl_command_is now' -l icons -x -a 'emoji nerd text' -d '{icon} as emoji (default), nerd or text'
complete -c raindctl -n '__raindctl_command_is now' -a '(__raindctl_places)' -d 'saved place'

complete -c raindctl -n '__raindctl_command_is hourly' -l hours -x -d 'how many hours (default 12, at most 48)'
complete -c raindctl -n '__raindctl_command_is hourly' -l json -d 'print raind\'s reply'
complete -c raindctl -n '__raindctl_command_is hourly' -a '(__raindctl_places)' -d 'saved place'

complete -c raindctl -n '__raindctl_command_is daily' -l json -d 'print raind\'s reply'
complete -c raindctl -n '__raindctl_command_is daily' -a '(__raindctl_places)' -d 'saved place'

complete -c raindctl -n '__raindctl_command_is accuracy' -l json -d 'print raind\'s reply'
complete -c raindctl -n '__raindctl_command_is accuracy' -l chart -d 'draw each provider\'s daily 24 h temperature error instead of the table'
complete -c raindctl -n '__raindctl_command_is accuracy' -a '(__raindctl_places)' -d 'saved place'

complete -c raindctl -n '__raindctl_command_is search' -l limit -x -d 'at most N candidates (default 10, at most 100)'
complete -c raindctl -n '__raindctl_command_is search' -l json -d 'print the candidates as one JSON object'

complete -c raindctl -n '__raindctl_command_is subscribe' -l json -d 'one JSON object per line, as raind sends them'
complete -c raindctl -n '__raindctl_command_is subscribe' -l format -x -a 'people json bar waybar' -d 'people (default), json, bar, waybar or a template such as \'{icon} {temp}\''
complete -c raindctl -n '__raindctl_command_is subscribe' -l text -x -d 'with --format waybar: the template for its text'
complete -c raindctl -n '__raindctl_command_is subscribe' -l icons -x -a 'emoji nerd text' -d '{icon} as emoji (default), nerd or text'
complete -c raindctl -n '__raindctl_command_is subscribe' -l events -x -a '(__raindctl_list LocationAdded LocationRemoved LocationSelected LocationChanged SettingsChanged WeatherUpdated ReachabilityChanged RefreshStarted RefreshFailed AlertsChanged NowcastChanged ProviderChanged)' -d 'only these events (people and json formats)'

complete -c raindctl -n '__raindctl_command_is help' -a 'status' -d 'show the daemon\'s state: places, units, refresh times, upstream calls'
complete -c raindctl -n '__raindctl_command_is help' -a 'list' -d 'list the saved places; * marks the selected one'
complete -c raindctl -n '__raindctl_command_is help' -a 'add' -d 'save a place by name, by coordinates, or the current position'
complete -c raindctl -n '__raindctl_command_is help' -a 'remove' -d 'remove a saved place (not the selected one)'
complete -c raindctl -n '__raindctl_command_is help' -a 'set-location' -d 'select a saved place: the one status bars and now/hourly/daily show'
complete -c raindctl -n '__raindctl_command_is help' -a 'units' -d 'show or set the unit system: us, si, ca, uk (or fahrenheit, celsius)'
complete -c raindctl -n '__raindctl_command_is help' -a 'refresh' -d 'fetch the weather now (the selected place, PLACE, or --all)'
complete -c raindctl -n '__raindctl_command_is help' -a 'now' -d 'current conditions: temperature, feels-like, wind, chance of rain'
complete -c raindctl -n '__raindctl_command_is help' -a 'hourly' -d 'the coming hours: time, temperature, wind, rain'
complete -c raindctl -n '__raindctl_command_is help' -a 'daily' -d 'the coming days: weekday, date, min/max, wind, rain'
complete -c raindctl -n '__raindctl_command_is help' -a 'accuracy' -d 'how each provider\'s forecasts compared with what was observed'
complete -c raindctl -n '__raindctl_command_is help' -a 'search' -d 'find places by name in raind\'s place data'
complete -c raindctl -n '__raindctl_command_is help' -a 'subscribe' -d 'print every change as it happens (for people, scripts and status bars)'
complete -c raindctl -n '__raindctl_command_is help' -a 'help' -d 'show this help, or a command\'s (raindctl help COMMAND)'
