#ifndef LT_CSOXR_SHIM_H
#define LT_CSOXR_SHIM_H
#include <soxr.h>
#endif
