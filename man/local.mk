### Manual pages

dist_man_MANS += \
	%reldir%/shardlp-opt.1 \
	%reldir%/shardlp.1
