#ifndef LT_CSNDFILE_SHIM_H
#define LT_CSNDFILE_SHIM_H
#include <sndfile.h>
#endif
