// SPDX-License-Identifier: GPL-2.0
/*
 * lkst_net - UDP datagrams of known sizes over the loopback device, for
 * the t53_net scenario.
 *
 * Sends each payload size of a fixed list to a socket bound on 127.0.0.1
 * and receives it back, checking the size.  Prints "pid PID", "ifindex N"
 * (of lo) and "port N".
 *
 * usage: lkst_net
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Must match tests/check/t53_net.py. */
static const size_t sizes[] = { 100, 555, 1234, 3000 };

static char buf[4096];

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t salen = sizeof(sa);
	unsigned int i, ifindex;
	int rx, tx;
	ssize_t n;

	(void)argv;
	if (argc != 1) {
		fprintf(stderr, "usage: lkst_net (no arguments)\n");
		return 1;
	}
	ifindex = if_nametoindex("lo");
	if (!ifindex) {
		fprintf(stderr, "lkst_net: no lo device: %s\n", strerror(errno));
		return 1;
	}
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&sa, sizeof(sa)) ||
	    getsockname(rx, (struct sockaddr *)&sa, &salen)) {
		fprintf(stderr, "lkst_net: cannot set up UDP on 127.0.0.1: %s\n",
			strerror(errno));
		return 1;
	}
	printf("pid %d\nifindex %u\nport %u\n", (int)getpid(), ifindex,
	       ntohs(sa.sin_port));
	fflush(stdout);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(buf, 'a' + i, sizes[i]);
		n = sendto(tx, buf, sizes[i], 0, (struct sockaddr *)&sa, sizeof(sa));
		if (n != (ssize_t)sizes[i]) {
			fprintf(stderr, "lkst_net: sendto of %zu bytes returned %zd: %s\n",
				sizes[i], n, strerror(errno));
			return 1;
		}
		n = recv(rx, buf, sizeof(buf), 0);
		if (n != (ssize_t)sizes[i]) {
			fprintf(stderr, "lkst_net: received %zd bytes, expected %zu: %s\n",
				n, sizes[i], strerror(errno));
			return 1;
		}
	}
	close(rx);
	close(tx);
	printf("done\n");
	return 0;
}
