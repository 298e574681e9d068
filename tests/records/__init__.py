"""Records: signing and keys, doctor, export and import in every format."""
