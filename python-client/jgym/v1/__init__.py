"""Generated gRPC stubs of the jgym.v1 protocol (api/jgym/v1/jgym.proto).

Do not edit: python-client/scripts/gen_proto.sh regenerates them.
"""
