// Only carries simdjson's pkg-config flags to the CSimdJSON C++ target; never imported from Swift.
