### Bash completion: one file, read by bash-completion under the name of
### each program it completes.

bashcompletiondir = $(datadir)/bash-completion/completions
dist_bashcompletion_DATA = %reldir%/shardlp

install-data-hook: install-completion-opt
install-completion-opt:
	cd '$(DESTDIR)$(bashcompletiondir)' && rm -f shardlp-opt && $(LN_S) shardlp shardlp-opt
uninstall-hook: uninstall-completion-opt
uninstall-completion-opt:
	rm -f '$(DESTDIR)$(bashcompletiondir)/shardlp-opt'
.PHONY: install-completion-opt uninstall-completion-opt
