#ifndef LT_CPOCKETSPHINX_SHIM_H
#define LT_CPOCKETSPHINX_SHIM_H

#include <pocketsphinx.h>
#include <err.h>

/// cmd_ln_init is variadic, which Swift cannot call: this wrapper builds the
/// decoder configuration from the three model paths, with logging silenced
/// (the library logs to stderr by default and would corrupt the live view).
static inline cmd_ln_t *lt_ps_config(const char *hmm, const char *lm, const char *dict) {
    err_set_logfp(NULL);
    return cmd_ln_init(NULL, ps_args(), 1,
                       "-hmm", hmm,
                       "-lm", lm,
                       "-dict", dict,
                       "-logfn", "/dev/null",
                       NULL);
}

/// cmd_ln_int32_r is a macro: frames per second of the decoder's feature stream.
static inline int lt_ps_frame_rate(cmd_ln_t *config) {
    return (int)cmd_ln_int32_r(config, "-frate");
}

#endif
