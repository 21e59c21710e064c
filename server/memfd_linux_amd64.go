package server

// sysMemfdCreate is memfd_create(2)'s number on linux/amd64.
const sysMemfdCreate = 319
