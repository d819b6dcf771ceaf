/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ktls: administration of the in-kernel TLS handshake of ktls_hs.ko.
 * The map of the tool: who provides what, one block per file.
 */
#ifndef KTLS_TOOL_H
#define KTLS_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/types.h>

#include "../../include/uapi/linux/ktls_hs.h"

#ifndef TCP_ULP
#define TCP_ULP 31
#endif
#ifndef SOL_TLS
#define SOL_TLS 282
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define KTLS_ULP_ARMED	"ktls_hs"
/* The keyring, in the caller's user keyring, that holds the identities. */
#define KTLS_KEYRING	"ktls"
#define KTLS_KEY_TYPE	"ktls_identity"
#define KTLS_TRUST_TYPE	"ktls_trust"
/* Ticket keys an operator supplies, in the same keyring. */
#define KTLS_TICKETS_TYPE	"ktls_tickets"
#define KTLS_NAME_MAX	255
#define KTLS_PORTS_MAX	16

/* Exit codes; the man page lists them. */
enum {
	KTLS_EXIT_OK		= 0,
	KTLS_EXIT_FAIL		= 1,	/* the kernel or the system refused */
	KTLS_EXIT_USAGE		= 2,
	KTLS_EXIT_NOMODULE	= 3,	/* ktls_hs.ko not loaded */
	KTLS_EXIT_NOTFOUND	= 4,	/* identity, process or listener */
	KTLS_EXIT_PERM		= 5,	/* not permitted */
	KTLS_EXIT_EXISTS	= 6,	/* identity exists, port armed */
	KTLS_EXIT_INVALID	= 7,	/* bad files, not a TCP listener */
};

/* What an armed listener gets; the same for arm and run. */
struct ktls_settings {
	__s32 serials[KTLS_HS_IDENTITIES_MAX];
	char names[KTLS_HS_IDENTITIES_MAX][KTLS_NAME_MAX + 1];
	unsigned int nr_ids;
	__u8 alpn[KTLS_HS_ALPN_MAX];
	unsigned int alpn_len;
	__u32 versions;
	__u32 groups;		/* KTLS_HS_GROUP_* bits */
	__u32 timeout_ms;
	__u32 ticket_lifetime;
	char ticket_keys[KTLS_NAME_MAX + 1];	/* --ticket-keys, "" if none */
	__s32 ticket_serial;	/* its serial, once resolved */
	char client_ca[KTLS_NAME_MAX + 1];	/* --client-ca, "" if none */
	__s32 client_ca_serial;	/* its serial, once resolved */
	__u32 client_auth;	/* KTLS_HS_CLIENT_AUTH_* */
	bool client_auth_given;	/* --client-auth, else from --client-ca */
	unsigned short port;	/* names the ticket key group */
};

/* ktls.c */
extern const char *ktls_cmd;
int ktls_err(int code, const char *fmt, ...);
void ktls_note(const char *fmt, ...);
int ktls_errno_code(int err);
int ktls_pidfd_open(pid_t pid);
int ktls_pidfd_getfd(int pidfd, int fd);
bool ktls_module_loaded(void);
int ktls_need_module(void);
bool ktls_is_help(int argc, char **argv);
int ktls_parse_uint(const char *s, unsigned long max, unsigned long *val);
bool ktls_name_ok(const char *name);

/* keyring.c */
int ktls_keyring_setup(void);
__s32 ktls_keyring(bool create);
__s32 ktls_identity_find(const char *name);
int ktls_identity_list(__s32 **serials);
__s32 ktls_key_find(const char *type, const char *name);
int ktls_key_list(const char *type, __s32 **serials);
int ktls_key_describe(__s32 serial, char *type, size_t tlen, char *desc,
		      size_t dlen);
int ktls_key_read(__s32 serial, unsigned char **buf, size_t *len);
long ktls_keyctl(int cmd, unsigned long a2, unsigned long a3,
		 unsigned long a4, unsigned long a5);
__s32 ktls_add_key(const char *type, const char *desc, const void *payload,
		   size_t plen, __s32 ring);
const char *ktls_key_name(const char *ktype, __s32 serial, char *buf, size_t len);
const char *ktls_identity_name(__s32 serial, char *buf, size_t len);

/* x509.c: the few fields of a DER certificate that show prints */
struct ktls_cert_info {
	char subject[512];
	char issuer[512];
	char dns[1024];		/* DNS and IP names, comma separated */
	char not_after[32];	/* YYYY-MM-DD HH:MM:SS UTC */
	char key_type[32];
	size_t len;		/* of the certificate's DER */
};

int ktls_x509_parse(const unsigned char *der, size_t len,
		    struct ktls_cert_info *info);

/* pem.c: files and the PEM blocks in them */
struct ktls_buf {
	char *p;
	size_t len;
};

int ktls_read_file(const char *path, struct ktls_buf *b);
bool ktls_pem_next(const char *s, size_t *pos, char *label, size_t llen,
		   const char **start, const char **end);
size_t ktls_pem_der(const char *start, const char *end, unsigned char *out,
		    size_t size);

/* sha256.c: certificate fingerprints */
#define KTLS_SHA256_SIZE	32
void ktls_sha256(const void *data, size_t len,
		 unsigned char out[KTLS_SHA256_SIZE]);

/* identity.c */
int ktls_cmd_identity(int argc, char **argv);

/* trust.c */
int ktls_cmd_trust(int argc, char **argv);

/* tickets.c */
int ktls_cmd_tickets(int argc, char **argv);

/* settings.c */
struct ktls_group_name {
	const char *name;
	__u32 bit;
};

extern const struct ktls_group_name ktls_group_names[];
int ktls_settings_parse(struct ktls_settings *s, int opt, const char *arg);
int ktls_settings_resolve(struct ktls_settings *s);
int ktls_settings_apply(int fd, const struct ktls_settings *s, bool fresh);
int ktls_settings_probe(const struct ktls_settings *s);
const char *ktls_settings_what(void);
int ktls_settings_err(int err, const char *where);

/* listeners.c: finding a process's TCP listeners */
struct ktls_listener {
	ino_t ino;
	pid_t pid;
	int fd;			/* in @pid */
	int family;
	unsigned short port;
	char addr[64];
};

int ktls_ports_parse(const char *arg, unsigned short *ports, int max);
int ktls_listeners_of(pid_t pid, unsigned short port,
		      struct ktls_listener **out, int *nr, int *other);
int ktls_pid_children(pid_t pid, pid_t **out, int *nr);

/* arm.c */
int ktls_cmd_arm(int argc, char **argv);
int ktls_listener_state(int fd, char *ulp, size_t len);

/* run.c */
int ktls_cmd_run(int argc, char **argv);

/* show.c */
int ktls_cmd_show(int argc, char **argv);

#endif /* KTLS_TOOL_H */
