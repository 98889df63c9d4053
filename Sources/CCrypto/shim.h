// OpenSSL's libcrypto, for SHA-256 (the digest of an imported file's audio content).
// Only the EVP digest interface is used; nothing here needs a wrapper.
#include <openssl/evp.h>
