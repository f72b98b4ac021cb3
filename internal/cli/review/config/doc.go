// Package config is the first stage of the review pipeline (config -> source -> assemble ->
// checks -> report, fleet beside checks): it finds and reads .karpenter-review.yaml, which
// maps paths to clusters and sets each cluster's region, Karpenter release, suppressions and
// group. Every later stage reads the compiled Config; config imports none of them.
//
// Files: config.go (finding, reading and compiling the file), config_keys.go (unknown keys),
// fleet_config.go (groups), glob.go (path patterns), target.go (release and feature gates),
// region.go (region names).
package config
