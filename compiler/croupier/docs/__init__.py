"""The rules language reference (`language.md`), shipped with the tool and shown by `croupier help`."""
