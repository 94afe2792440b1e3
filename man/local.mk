### Manual pages

dist_man_MANS += \
	%reldir%/shardlp-cost.7 \
	%reldir%/shardlp-opt.1 \
	%reldir%/shardlp.1
dist_man_MANS += %reldir%/shardlp-xml.5
