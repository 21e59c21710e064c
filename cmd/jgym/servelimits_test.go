package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	jgymv1 "jgym/api/jgym/v1"
	"jgym/internal/strict"
	"jgym/sandbox"
)

func TestHostileFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--max-compiles", "0"},
		{"--compile-wait", "0s"},
		{"--cpp-cache-bytes", "lots"},
		{"--max-executable-bytes", "0"},
		{"--unread-timeout", "-1s"},
		{"--unauthenticated-bytes", "0"},
		{"--client-compiles", "-1"},
	} {
		cfg := defaultServeConfig()
		fs := newFlagSet(commands["serve"], io.Discard)
		hostileFlags(fs, &cfg)
		if err := fs.Parse(args); err != nil {
			continue // refused by the flag package
		}
		if _, _, err := serveOptions(cfg, io.Discard); !errors.Is(err, errUsage) {
			t.Errorf("serve %v: %v, want a usage error", args, err)
		}
	}
}

// A C++ upload's executable counts against the client's quota, and one
// over --max-executable-bytes is refused.
func TestServeUploadCountsExecutable(t *testing.T) {
	if _, err := sandbox.Default(); errors.Is(err, sandbox.ErrUnavailable) {
		strict.Skip(t, err.Error())
	}
	cfg := defaultServeConfig()
	cfg.addr, cfg.h.maxExeBytes = "127.0.0.1:0", "1MiB"
	conn, err := grpc.NewClient(startServe(t, cfg), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := jgymv1.NewJgymServiceClient(conn)
	bot := func(ballast int) []byte {
		return fmt.Appendf(nil, "#include \"Player.hh\"\nchar ballast[%d] = {1};\n#define PLAYER_NAME B\n"+
			"struct PLAYER_NAME : public Player {\n static Player* factory() { return new PLAYER_NAME; }\n"+
			" virtual void play() { if (ballast[round() %% sizeof ballast] == 7) cerr << 7; }\n};\nRegisterPlayer(PLAYER_NAME);\n", ballast)
	}
	ctx := context.Background()
	_, err = c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: "AIHuge.cc", Content: bot(3 << 19)})
	if status.Code(err) != codes.InvalidArgument || !strings.Contains(err.Error(), "over 1048576 bytes") {
		t.Errorf("a bot with a 1.5 MiB executable under --max-executable-bytes 1MiB: %v, want InvalidArgument naming the limit", err)
	}
	src := bot(256 << 10)
	up, err := c.UploadBot(ctx, &jgymv1.UploadBotRequest{Kind: jgymv1.BotKind_BOT_KIND_CPP, Name: "AIBig.cc", Content: src})
	if err != nil {
		t.Fatal(err)
	}
	if up.QuotaUsedBytes < int64(len(src))+256<<10 {
		t.Errorf("quota used %d bytes for a %d-byte source with a 256 KiB executable, want both counted", up.QuotaUsedBytes, len(src))
	} else {
		t.Logf("quota used %d bytes for a %d-byte source", up.QuotaUsedBytes, len(src))
	}
}
