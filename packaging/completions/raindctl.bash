# bash completion for raindctl                             -*- shell-script -*-
# Installed as /usr/share/bash-completion/completions/raindctl.

# Saved place ids, asked of the running raind (quietly nothing if it is not running).
_raindctl_places()
{
    local -a socket=()
    [[ -n $1 ]] && socket=(--socket "$1")
    raindctl "${socket[@]}" list --json 2>/dev/null |
        grep -o '"id":"[^"]*","name"' | sed 's/^"id":"//; s/","name"$//'
}

_raindctl()
{
    local cur prev words cword
    _init_completion -n = || return

    local commands="status list add remove set-location units refresh now hourly daily search subscribe help"
    local events="LocationAdded LocationRemoved LocationSelected LocationChanged WeatherUpdated SettingsChanged ReachabilityChanged RefreshStarted RefreshFailed AlertsChanged NowcastChanged"

    # Global options come before the command.
    local i command="" socket=""
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --socket)
                socket=${words[i + 1]}
                ((i++))
                ;;
            -*) ;;
            *)
                command=${words[i]}
                break
                ;;
        esac
    done

    if [[ -z $command ]]; then
        case $prev in
            --socket)
                _filedir
                return
                ;;
        esac
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--socket --version --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    case $prev in
        --coords | --name | --hours | --limit)
            return
            ;;
        --format)
            COMPREPLY=($(compgen -W "people json bar waybar" -- "$cur"))
            return
            ;;
        --icons)
            COMPREPLY=($(compgen -W "emoji nerd text" -- "$cur"))
            return
            ;;
        --text)
            return
            ;;
        --events)
            # A comma-separated list: complete the last item.
            local done_part=${cur%"${cur##*,}"}
            COMPREPLY=($(compgen -P "$done_part" -W "$events" -- "${cur##*,}"))
            compopt -o nospace
            return
            ;;
    esac

    local options=""
    local places=no
    case $command in
        status | list) options="--json" ;;
        add) options="--coords --name --current --follow --json" ;;
        remove | set-location) places=yes ;;
        units)
            options=""
            [[ $cur != -* ]] && COMPREPLY=($(compgen -W "us si ca uk fahrenheit celsius" -- "$cur"))
            return
            ;;
        refresh) options="--all" places=yes ;;
        now) options="--json --format --icons" places=yes ;;
        daily) options="--json" places=yes ;;
        hourly) options="--hours --json" places=yes ;;
        search) options="--limit --json" ;;
        subscribe) options="--json --format --text --icons --events" ;;
        help)
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            return
            ;;
    esac
    options+=" --help"

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [[ $places == yes ]]; then
        COMPREPLY=($(compgen -W "$(_raindctl_places "$socket")" -- "$cur"))
    fi
} &&
    complete -F _raindctl raindctl

# ex: filetype=sh
