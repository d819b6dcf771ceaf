// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktls_sendpage_locked: a test module that calls kernel_sendpage_locked()
 * on a socket a process names, as a kernel user holding the socket lock
 * would (skb_send_sock_locked()).
 *
 * No such caller can reach a kTLS socket from userspace on the kernels
 * that have the op (before 6.5), yet it must never put plaintext beside
 * records.  The selftest sendpage_locked.sh writes a socket's descriptor
 * to /sys/kernel/debug/ktls_sendpage_locked/send; the module sends a page
 * holding "ktls-plaintext" through the socket's op, and the write returns
 * the op's error, or succeeds when the op took the bytes.  Built with the
 * runner's test modules, never for production use.
 */
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/gfp.h>
#include <linux/kstrtox.h>
#include <linux/module.h>
#include <linux/net.h>
#include <linux/string.h>
#include <net/sock.h>

static const char ktls_spl_text[] = "ktls-plaintext";

static struct dentry *ktls_spl_dir;

static int ktls_spl_send(struct socket *sock)
{
	size_t len = sizeof(ktls_spl_text) - 1;
	struct sock *sk = sock->sk;
	struct page *page;
	int ret;

	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	memcpy(page_address(page), ktls_spl_text, len);
	lock_sock(sk);
	ret = kernel_sendpage_locked(sk, page, 0, len, MSG_DONTWAIT);
	release_sock(sk);
	put_page(page);
	return ret;
}

static ssize_t ktls_spl_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct socket *sock;
	int fd, err;

	err = kstrtoint_from_user(ubuf, count, 10, &fd);
	if (err)
		return err;
	sock = sockfd_lookup(fd, &err);
	if (!sock)
		return err;
	err = ktls_spl_send(sock);
	sockfd_put(sock);
	return err < 0 ? err : count;
}

static const struct file_operations ktls_spl_fops = {
	.owner	= THIS_MODULE,
	.write	= ktls_spl_write,
	.llseek	= noop_llseek,
};

static int __init ktls_spl_init(void)
{
	ktls_spl_dir = debugfs_create_dir("ktls_sendpage_locked", NULL);
	if (IS_ERR(ktls_spl_dir))
		return PTR_ERR(ktls_spl_dir);
	debugfs_create_file("send", 0200, ktls_spl_dir, NULL, &ktls_spl_fops);
	return 0;
}

static void __exit ktls_spl_exit(void)
{
	debugfs_remove(ktls_spl_dir);
}

module_init(ktls_spl_init);
module_exit(ktls_spl_exit);
MODULE_DESCRIPTION("ktls-hs test helper: kernel_sendpage_locked() on a socket");
MODULE_LICENSE("GPL");
