// SPDX-License-Identifier: GPL-2.0-only
/*
 * The keyring the identities live in: a keyring named "ktls" in the
 * caller's user keyring (root's, for a system service), each identity a
 * "ktls_identity" key and each trust store a "ktls_trust" key, named by
 * its description.  Raw keyctl(2) and
 * add_key(2): libkeyutils would add a dependency for five calls.
 *
 * The user keyring, unlike a session keyring, does not die with a login
 * or a service: it lasts as long as the user namespace, so identities
 * loaded at boot by one unit are there for the arm of another.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/keyctl.h>

#include "ktls.h"

/* As <keyutils.h> names them: possessor and owner permission bits. */
#define KEY_POS_ALL	0x3f000000
#define KEY_USR_VIEW	0x00010000
#define KEY_USR_READ	0x00020000
#define KEY_USR_SEARCH	0x00080000

long ktls_keyctl(int cmd, unsigned long a2, unsigned long a3,
		 unsigned long a4, unsigned long a5)
{
	return syscall(__NR_keyctl, cmd, a2, a3, a4, a5);
}

__s32 ktls_add_key(const char *type, const char *desc, const void *payload,
		   size_t plen, __s32 ring)
{
	return syscall(__NR_add_key, type, desc, payload, plen, ring);
}

/*
 * The rights on a key come from possessing it, which the kernel decides
 * by searching the caller's own keyrings.  A service systemd starts has
 * a private session keyring without the user keyring in it, so there the
 * identities would not be possessed, and a lookup by serial (ours, and
 * the kernel's at setsockopt) would fail with EACCES.  The tool joins a
 * new session keyring of its own, which changes this process only, and
 * links the user keyring into it.
 */
int ktls_keyring_setup(void)
{
	if (ktls_keyctl(KEYCTL_JOIN_SESSION_KEYRING, 0, 0, 0, 0) < 0 ||
	    ktls_keyctl(KEYCTL_LINK, KEY_SPEC_USER_KEYRING,
			KEY_SPEC_SESSION_KEYRING, 0, 0) < 0)
		return ktls_err(KTLS_EXIT_FAIL, "cannot reach the user keyring: %s",
				strerror(errno));
	return 0;
}

/* The "ktls" keyring's serial, or -errno (-ENOKEY: none yet). */
__s32 ktls_keyring(bool create)
{
	long ring;

	ring = ktls_keyctl(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING,
			   (unsigned long)"keyring", (unsigned long)KTLS_KEYRING, 0);
	if (ring >= 0)
		return ring;
	if (errno != ENOKEY || !create)
		return -errno;
	ring = ktls_add_key("keyring", KTLS_KEYRING, NULL, 0,
			    KEY_SPEC_USER_KEYRING);
	if (ring < 0)
		return -errno;
	/* root's services may list it without possessing it. */
	ktls_keyctl(KEYCTL_SETPERM, ring, KEY_POS_ALL | KEY_USR_VIEW |
		    KEY_USR_READ | KEY_USR_SEARCH, 0, 0);
	return ring;
}

int ktls_key_read(__s32 serial, unsigned char **buf, size_t *len)
{
	unsigned char *p = NULL, *np;
	size_t size = 4096;
	long n;

	for (;;) {
		np = realloc(p, size);
		if (!np) {
			free(p);
			return -ENOMEM;
		}
		p = np;
		n = ktls_keyctl(KEYCTL_READ, serial, (unsigned long)p, size, 0);
		if (n < 0) {
			free(p);
			return -errno;
		}
		if ((size_t)n <= size)
			break;
		size = n;
	}
	*buf = p;
	*len = n;
	return 0;
}

/* "type;uid;gid;perm;description" split into the two ends. */
int ktls_key_describe(__s32 serial, char *type, size_t tlen, char *desc,
		      size_t dlen)
{
	char buf[KTLS_NAME_MAX + 128], *p;
	long n;
	int i;

	n = ktls_keyctl(KEYCTL_DESCRIBE, serial, (unsigned long)buf,
			sizeof(buf), 0);
	if (n < 0)
		return -errno;
	if ((size_t)n > sizeof(buf))
		return -ENAMETOOLONG;
	buf[sizeof(buf) - 1] = '\0';
	p = strchr(buf, ';');
	if (!p)
		return -EINVAL;
	snprintf(type, tlen, "%.*s", (int)(p - buf), buf);
	for (i = 0; i < 3 && p; i++)
		p = strchr(p + 1, ';');
	if (!p)
		return -EINVAL;
	snprintf(desc, dlen, "%s", p + 1);
	return 0;
}

/* The serials of the keys of @type, in keyring order; their count or -errno. */
int ktls_key_list(const char *type, __s32 **serials)
{
	char ktype[64], desc[KTLS_NAME_MAX + 1];
	unsigned char *buf;
	__s32 ring, *keys;
	int i, n = 0, err;
	size_t len;

	*serials = NULL;
	ring = ktls_keyring(false);
	if (ring == -ENOKEY)
		return 0;
	if (ring < 0)
		return ring;
	err = ktls_key_read(ring, &buf, &len);
	if (err)
		return err;
	keys = (__s32 *)buf;
	for (i = 0; i < (int)(len / sizeof(*keys)); i++) {
		if (ktls_key_describe(keys[i], ktype, sizeof(ktype), desc,
				      sizeof(desc)) ||
		    strcmp(ktype, type))
			continue;
		keys[n++] = keys[i];
	}
	*serials = keys;
	return n;
}

int ktls_identity_list(__s32 **serials)
{
	return ktls_key_list(KTLS_KEY_TYPE, serials);
}

/* The key of @type named @name in the keyring: its serial, or -ENOKEY. */
__s32 ktls_key_find(const char *type, const char *name)
{
	char ktype[64], desc[KTLS_NAME_MAX + 1];
	__s32 *keys, found = -ENOKEY;
	int i, n;

	n = ktls_key_list(type, &keys);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		if (!ktls_key_describe(keys[i], ktype, sizeof(ktype), desc,
				       sizeof(desc)) && !strcmp(desc, name)) {
			found = keys[i];
			break;
		}
	}
	free(keys);
	return found;
}

/* The identity named @name in the keyring: its serial, or -ENOKEY. */
__s32 ktls_identity_find(const char *name)
{
	return ktls_key_find(KTLS_KEY_TYPE, name);
}

/* The name of key @serial of @ktype, or "#serial" for a key we cannot see. */
const char *ktls_key_name(const char *ktype, __s32 serial, char *buf, size_t len)
{
	char type[64], desc[KTLS_NAME_MAX + 1];

	if (ktls_key_describe(serial, type, sizeof(type), desc, sizeof(desc)) ||
	    strcmp(type, ktype))
		snprintf(buf, len, "#%d", serial);
	else
		snprintf(buf, len, "%s", desc);
	return buf;
}

const char *ktls_identity_name(__s32 serial, char *buf, size_t len)
{
	return ktls_key_name(KTLS_KEY_TYPE, serial, buf, len);
}
