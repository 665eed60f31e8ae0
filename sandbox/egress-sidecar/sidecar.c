/*
 * The network sidecar that local container runs use (`wrangler dev` with containers): workerd
 * starts one per container, with NET_ADMIN, and the container joins its network namespace. It
 * stands in for Cloudflare's `proxy-everything` image (which cannot be pulled on these machines)
 * with only what workerd asks of it when the internet is off (docs/sandbox.md, "The network
 * sidecar"):
 *
 *  - an HTTP server on `--http-ingress-address` (workerd publishes its port 39001 to the host):
 *      PUT /egress  -> 200: workerd's egress settings; there is nothing to route, so they are read
 *                    and dropped (no interception: the container gets no way out).
 *      GET /ca      -> 200: the CA workerd installs for HTTPS interception; there is none, so an
 *                    empty bundle.
 *      CONNECT h:p  -> a tunnel to 127.0.0.1:p in the shared namespace (how workerd reaches the
 *                    container's ports); 400 when nothing listens there, as workerd expects.
 *  - at start, the namespace's default route is deleted, so nothing beyond the Docker bridge is
 *    reachable from the container (no internet, no DNS); workerd still reaches the ingress port
 *    through Docker's port publishing on the bridge.
 *
 * Other flags (--http-egress-port, --docker-gateway-cidr, --dns-enabled, --tls-intercept,
 * --disable-ipv6) are accepted and ignored. Static, no libraries: the image is this one binary.
 * Build: gcc -static -O2 -o sidecar sidecar.c
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/route.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_HEAD 16384

static void log_line(const char *what, const char *detail) {
  fprintf(stderr, "little-sidecar: %s%s%s\n", what, detail ? " " : "", detail ? detail : "");
}

/* Deletes the IPv4 default route of this network namespace (needs NET_ADMIN). */
static void drop_default_route(void) {
  int fd = socket(AF_INET, SOCK_DGRAM, 0);
  if (fd < 0) return;
  for (int i = 0; i < 4; i++) {
    struct rtentry rt;
    memset(&rt, 0, sizeof rt);
    struct sockaddr_in *dst = (struct sockaddr_in *)&rt.rt_dst;
    struct sockaddr_in *mask = (struct sockaddr_in *)&rt.rt_genmask;
    dst->sin_family = AF_INET;
    mask->sin_family = AF_INET;
    if (ioctl(fd, SIOCDELRT, &rt) != 0) {
      if (i == 0) log_line("no default route to delete:", strerror(errno));
      break;
    }
    log_line("deleted the default route: the container has no way out", NULL);
  }
  close(fd);
}

static int write_all(int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n = write(fd, buf, len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

static void reply(int fd, const char *status, const char *body) {
  char head[256];
  size_t len = strlen(body);
  int n = snprintf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Length: %zu\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n",
                   status, len);
  if (write_all(fd, head, (size_t)n) == 0) write_all(fd, body, len);
}

/* Copies bytes both ways until both sides are done; a side's EOF is passed on as a half-close. */
static void relay(int a, int b, const char *pending, size_t pending_len) {
  if (pending_len > 0 && write_all(b, pending, pending_len) != 0) return;
  char buf[65536];
  int open_a = 1, open_b = 1;
  while (open_a || open_b) {
    struct pollfd p[2] = {{a, open_a ? POLLIN : 0, 0}, {b, open_b ? POLLIN : 0, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    for (int i = 0; i < 2; i++) {
      int from = i == 0 ? a : b, to = i == 0 ? b : a;
      int *open = i == 0 ? &open_a : &open_b;
      if (!*open || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      ssize_t n = read(from, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        *open = 0;
        shutdown(to, SHUT_WR);
        if (n < 0) return;
        continue;
      }
      if (write_all(to, buf, (size_t)n) != 0) return;
    }
  }
}

/* The port of an authority `host:port` (a CONNECT target or an X-Dst-Addr value). */
static int port_of(const char *authority) {
  const char *colon = strrchr(authority, ':');
  if (!colon) return -1;
  char *end;
  long port = strtol(colon + 1, &end, 10);
  if (end == colon + 1 || port <= 0 || port > 65535) return -1;
  return (int)port;
}

static void tunnel(int client, const char *target, const char *rest, size_t rest_len) {
  int port = port_of(target);
  if (port < 0) {
    reply(client, "400 Bad Request", "a CONNECT target needs a port\n");
    return;
  }
  int up = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (up < 0 || connect(up, (struct sockaddr *)&addr, sizeof addr) != 0) {
    /* workerd reads 400 as "the container is not listening on that port" and retries. */
    reply(client, "400 Bad Request", "nothing listens on that port\n");
    if (up >= 0) close(up);
    return;
  }
  int one = 1;
  setsockopt(up, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  static const char ok[] = "HTTP/1.1 200 OK\r\n\r\n";
  if (write_all(client, ok, sizeof ok - 1) == 0) relay(client, up, rest, rest_len);
  close(up);
}

/* Reads the body a request announced (Content-Length) and drops it. */
static void drain(int fd, const char *head, size_t have) {
  const char *cl = NULL;
  for (const char *p = head; (p = strchr(p, '\n')) != NULL;) {
    p++;
    if (strncasecmp(p, "content-length:", 15) == 0) {
      cl = p + 15;
      break;
    }
  }
  long want = cl ? strtol(cl, NULL, 10) : 0;
  char buf[4096];
  for (long left = want - (long)have; left > 0;) {
    ssize_t n = read(fd, buf, left < (long)sizeof buf ? (size_t)left : sizeof buf);
    if (n <= 0) return;
    left -= n;
  }
}

static void serve(int client) {
  char head[MAX_HEAD + 1];
  size_t len = 0;
  char *end = NULL;
  while (!end) {
    if (len == MAX_HEAD) return;
    ssize_t n = read(client, head + len, MAX_HEAD - len);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    len += (size_t)n;
    head[len] = '\0';
    end = strstr(head, "\r\n\r\n");
  }
  size_t head_len = (size_t)(end - head) + 4;
  char method[16] = {0}, target[1024] = {0};
  if (sscanf(head, "%15s %1023s", method, target) != 2) {
    reply(client, "400 Bad Request", "malformed request\n");
    return;
  }
  if (strcmp(method, "CONNECT") == 0) {
    tunnel(client, target, head + head_len, len - head_len);
    return;
  }
  drain(client, head, len - head_len);
  if (strcmp(method, "PUT") == 0 && strncmp(target, "/egress", 7) == 0) reply(client, "200 OK", "{}");
  else if (strcmp(method, "GET") == 0 && strcmp(target, "/ca") == 0) reply(client, "200 OK", "");
  else reply(client, "404 Not Found", "not served by this sidecar\n");
}

static void on_term(int sig) {
  (void)sig;
  _exit(0);
}

int main(int argc, char **argv) {
  const char *ingress = "0.0.0.0:39001";
  for (int i = 1; i + 1 < argc; i++)
    if (strcmp(argv[i], "--http-ingress-address") == 0) ingress = argv[i + 1];
  int port = port_of(ingress);
  if (port < 0) {
    log_line("bad --http-ingress-address", ingress);
    return 64;
  }
  signal(SIGCHLD, SIG_IGN); /* children are reaped by the kernel */
  signal(SIGPIPE, SIG_IGN);
  signal(SIGTERM, on_term); /* PID 1 gets no default action for SIGTERM: stop promptly */
  drop_default_route();

  int server = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  setsockopt(server, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in addr;
  memset(&addr, 0, sizeof addr);
  addr.sin_family = AF_INET;
  addr.sin_port = htons((uint16_t)port);
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  if (bind(server, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(server, 128) != 0) {
    log_line("cannot listen:", strerror(errno));
    return 1;
  }
  log_line("listening on", ingress);
  for (;;) {
    int client = accept(server, NULL, NULL);
    if (client < 0) continue;
    pid_t pid = fork();
    if (pid == 0) {
      close(server);
      serve(client);
      close(client);
      _exit(0);
    }
    close(client);
  }
}
