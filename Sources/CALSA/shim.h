#ifndef LT_CALSA_SHIM_H
#define LT_CALSA_SHIM_H
#include <alsa/asoundlib.h>
#endif
