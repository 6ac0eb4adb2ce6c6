#include <systemd/sd-event.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-login.h>
