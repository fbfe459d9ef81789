# bash completion for raindctl                             -*- shell-script -*-
# Installed as /usr/share/bash-completion/completions/raindctl.
# Made by 'raindctl completions bash' from raindctl's declaration of its
# commands (scripts/generate-completions writes this file): change that
# declaration in Sources/raindctl, not this file.

# Saved place ids, asked of the running raind (quietly nothing if it is not running).
_raindctl_places()
{
    local -a socket=()
    [[ -n $1 ]] && socket=(--socket "$1")
    raindctl "${socket[@]}" list --json 2>/dev/null |
        grep -o '"id":"[^"]*","name"' | sed 's/^"id":"//; s/","name"$//'
}

# A comma-separated list of the words given: completes its last item with
# the words not in it yet.
_raindctl_list()
{
    local done_part=${cur%"${cur##*,}"} word left=""
    for word in $1; do
        [[ ,$done_part == *,$word,* ]] || left+=" $word"
    done
    COMPREPLY=($(compgen -P "$done_part" -W "$left" -- "${cur##*,}"))
    compopt -o nospace
}

_raindctl()
{
    local cur prev words cword split
    _init_completion -s || return

    local commands="status list add remove set-location units refresh now hourly daily accuracy search subscribe help"
    local events="LocationAdded LocationRemoved LocationSelected LocationChanged SettingsChanged WeatherUpdated ReachabilityChanged RefreshStarted RefreshFailed AlertsChanged NowcastChanged ProviderChanged"

    # Global options come before the command.
    local i command="" socket=""
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --socket)
                socket=${words[i + 1]}
                ((i++))
                ;;
            --socket=*) socket=${words[i]#--socket=} ;;
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
            COMPREPLY=($(compgen -W "--socket --version -h --help" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    # An option's value.
    case $command:$prev in
        add:--coords | add:--name | hourly:--hours | search:--limit | subscribe:--text)
            return
            ;;
        now:--format)
            COMPREPLY=($(compgen -W "bar waybar" -- "$cur"))
            return
            ;;
        now:--icons | subscribe:--icons)
            COMPREPLY=($(compgen -W "emoji nerd text" -- "$cur"))
            return
            ;;
        subscribe:--format)
            COMPREPLY=($(compgen -W "people json bar waybar" -- "$cur"))
            return
            ;;
        subscribe:--events)
            _raindctl_list "$events"
            return
            ;;
    esac

    # The command's argument.
    if [[ $cur != -* ]]; then
        case $command in
            remove | set-location | refresh | now | hourly | daily | accuracy) COMPREPLY=($(compgen -W "$(_raindctl_places "$socket")" -- "$cur")) ;;
            units) COMPREPLY=($(compgen -W "us si ca uk fahrenheit celsius" -- "$cur")) ;;
            help) COMPREPLY=($(compgen -W "$commands" -- "$cur")) ;;
        esac
        return
    fi

    # The command's options.
    local options=""
    case $command in
        status) options="--json -h --help" ;;
        list) options="--json -h --help" ;;
        add) options="--coords --name --current --follow --json -h --help" ;;
        remove) options="-h --help" ;;
        set-location) options="-h --help" ;;
        units) options="-h --help" ;;
        refresh) options="--all -h --help" ;;
        now) options="--json --format --icons -h --help" ;;
        hourly) options="--hours --json -h --help" ;;
        daily) options="--json -h --help" ;;
        accuracy) options="--json --chart -h --help" ;;
        search) options="--limit --json -h --help" ;;
        subscribe) options="--json --format --text --icons --events -h --help" ;;
        help) options="-h --help" ;;
    esac
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
} &&
    complete -F _raindctl raindctl

# ex: filetype=sh
