#ifndef ANCHOR_ALERT_GPIO_SHIM_H
#define ANCHOR_ALERT_GPIO_SHIM_H
/* The GPIO shim's API is defined by the GPIO driver work (issue 5). */
int aa_gpio_api_version(void);
#endif
