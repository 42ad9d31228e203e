"""Provider adapters: each turns a neutral `ModelRequest` into one wire format and back."""
