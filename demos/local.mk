# Demos: small programs that use only the public API.
