# fish completion for raindctl.
# Installed as /usr/share/fish/vendor_completions.d/raindctl.fish.

set -l commands status list add remove set-location units refresh now hourly daily search subscribe help
set -l events LocationAdded LocationRemoved LocationSelected LocationChanged WeatherUpdated SettingsChanged ReachabilityChanged RefreshStarted RefreshFailed AlertsChanged NowcastChanged

# Saved place ids, asked of the running raind (quietly nothing if it is not running).
function __raindctl_places
    set -l socket
    set -l tokens (commandline -opc)
    if set -l index (contains -i -- --socket $tokens)
        set socket --socket $tokens[(math $index + 1)]
    end
    raindctl $socket list --json 2>/dev/null | string match -ar '"id":"[^"]*","name"' | string replace -r '^"id":"(.*)","name"$' '$1'
end

complete -c raindctl -f
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -l socket -r -F -d "the daemon's socket"
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -l version -d 'print the version'
complete -c raindctl -s h -l help -d 'show help'

complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a status -d 'show what raind is doing'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a list -d 'list the saved places'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a add -d 'save a place'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a remove -d 'forget a saved place'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a set-location -d 'select a saved place'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a units -d 'show or set the unit system'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a refresh -d 'fetch the weather now'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a now -d 'the current weather'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a hourly -d 'the coming hours'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a daily -d 'the coming days'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a search -d 'search the place data'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a subscribe -d 'print every change'
complete -c raindctl -n "not __fish_seen_subcommand_from $commands" -a help -d 'show help for a command'

complete -c raindctl -n "__fish_seen_subcommand_from status list add now hourly daily search subscribe" -l json -d 'print JSON'
complete -c raindctl -n "__fish_seen_subcommand_from add" -l coords -x -d 'LAT,LON'
complete -c raindctl -n "__fish_seen_subcommand_from add" -l name -x -d 'name for the coordinates'
complete -c raindctl -n "__fish_seen_subcommand_from add" -l current -d 'the current position'
complete -c raindctl -n "__fish_seen_subcommand_from add" -l follow -d 'keep the place at the current position'
complete -c raindctl -n "__fish_seen_subcommand_from remove set-location refresh now hourly daily" -a '(__raindctl_places)'
complete -c raindctl -n "__fish_seen_subcommand_from refresh" -l all -d 'every place'
complete -c raindctl -n "__fish_seen_subcommand_from hourly" -l hours -x -d 'how many hours'
complete -c raindctl -n "__fish_seen_subcommand_from search" -l limit -x -d 'at most this many'
complete -c raindctl -n "__fish_seen_subcommand_from units" -a 'us si ca uk'
complete -c raindctl -n "__fish_seen_subcommand_from subscribe" -l format -x -a 'people json bar waybar' -d 'output format or a template'
complete -c raindctl -n "__fish_seen_subcommand_from now" -l format -x -d 'a template'
complete -c raindctl -n "__fish_seen_subcommand_from subscribe" -l text -x -d 'the tooltip template'
complete -c raindctl -n "__fish_seen_subcommand_from now subscribe" -l icons -x -a 'emoji nerd text' -d 'icon style'
complete -c raindctl -n "__fish_seen_subcommand_from subscribe" -l events -x -a "$events"
complete -c raindctl -n "__fish_seen_subcommand_from help" -a "$commands"
