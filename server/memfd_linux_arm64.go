package server

// sysMemfdCreate is memfd_create(2)'s number on linux/arm64.
const sysMemfdCreate = 279
